/** The secrets of an e2e system's environment worth looking for, as [name, value] pairs. */
export function secretsOf(env: Record<string, string | undefined>): Array<[string, string]>;
/** The log files of `dir` that hold one of the secrets, as "file: NAME". */
export function leakedSecrets(dir: string, secrets: Array<[string, string]>): string[];

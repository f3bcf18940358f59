// After a whole e2e run: no secret the system was given may appear in any process's log (ADR 0030, ADR 0031).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The secrets of an e2e system's environment worth looking for, by name (the private key by its base64 body). */
export function secretsOf(env) {
  const keyBody = (env.JWT_PRIVATE_KEY ?? '').replace(/-----[A-Z ]+-----|\\n|\s/g, '');
  return Object.entries({ ADMIN_PASSWORD: env.ADMIN_PASSWORD, JWT_PRIVATE_KEY: keyBody, SMTP_PASSWORD: env.SMTP_PASSWORD })
    .filter(([, value]) => typeof value === 'string' && value.length >= 8)
    // Any 24-character piece of the key's body gives it away (a log line may hold part of a PEM, split at its lines).
    .flatMap(([name, value]) => (name === 'JWT_PRIVATE_KEY' ? (value.match(/.{24}/g) ?? []).map((piece) => [name, piece]) : [[name, value]]));
}

/** The log lines of `dir` that hold one of the secrets, as "file: NAME" (none is the only good answer). */
export function leakedSecrets(dir, secrets) {
  const leaks = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.log'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [name, value] of secrets) if (text.includes(value)) leaks.push(`${file}: ${name}`);
  }
  return [...new Set(leaks)];
}

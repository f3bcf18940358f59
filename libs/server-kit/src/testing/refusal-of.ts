import type { AppError } from '../errors/app-error';

/** The status and detail of the typed error `run` throws, or null when it returns: a policy's answer in a table test. */
export function refusalOf(run: () => unknown): { status: number; detail: unknown } | null {
  try {
    run();
    return null;
  } catch (error) {
    // By shape: a test may load AppError from source and the code under test from dist (two classes of one name).
    if (error instanceof Error && typeof (error as AppError).status === 'number') return { status: (error as AppError).status, detail: (error as AppError).detail };
    throw error;
  }
}

/** Retries an assertion until it passes or the time is up; the last failure is rethrown. */
export async function eventually<T>(assertion: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

// Stops the containers the global setup started (ADR 0054); testcontainers' reaper removes them should this not run.
export default async function globalTeardown() {
  await globalThis.__TEST_CONTAINERS__?.stop();
}

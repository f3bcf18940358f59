// Stops the processes the journeys ran against and drops their database and event stream.
import { dropIsolated } from '../../../../scripts/lib/system.mjs';

export default async function globalTeardown() {
  const started = globalThis.__E2E_SYSTEM__;
  if (!started) return;
  await started.system.stop();
  await dropIsolated(started.env);
}

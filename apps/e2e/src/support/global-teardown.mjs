// Stops the processes the journeys ran against and drops their database and event stream.
import { dropIsolated } from '../../../../scripts/lib/system.mjs';
import { leakedSecrets, secretsOf } from './secrets-in-logs.mjs';

export default async function globalTeardown() {
  const started = globalThis.__E2E_SYSTEM__;
  if (!started) return;
  await started.system.stop();
  await dropIsolated(started.env);
  // Every journey has run: the logs of the whole run must not hold the admin password or the signing key.
  const leaks = leakedSecrets(process.env.E2E_LOG_DIR, secretsOf(started.env));
  if (leaks.length > 0) throw new Error(`Secrets found in the e2e run's logs: ${leaks.join(', ')}`);
}

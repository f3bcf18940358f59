// npm run nats-config: prints the NATS users and permissions of every process (ADR 0035) for an existing nats-server,
// with the subject spaces of EVENTS_PREFIX, EVENTS_STREAM and NATS_SUBJECT_PREFIX. Passwords are `$NATS_<USER>_PASSWORD`
// references that nats-server reads from its environment. `--out <file>` writes the file instead of printing it.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildWorkspace } from './lib/build.mjs';
import { builtContracts, natsConfigText, natsSpaces } from './lib/nats-permissions.mjs';
import { ROOT } from './lib/system.mjs';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
if (args.some((arg, i) => arg !== '--out' && !(outAt >= 0 && i === outAt + 1)) || (outAt >= 0 && !args[outAt + 1])) {
  console.error('Usage: npm run nats-config [-- --out <file>]');
  process.exit(2);
}
// Build progress goes to stderr, so the printed config can be redirected as it is.
const toStderr = (line) => console.error(line);
buildWorkspace(toStderr, { toStderr: true });
const text = natsConfigText(builtContracts(toStderr), natsSpaces(process.env));
if (outAt >= 0) {
  writeFileSync(resolve(ROOT, args[outAt + 1]), text);
  console.error(`Wrote ${args[outAt + 1]}`);
} else process.stdout.write(text);

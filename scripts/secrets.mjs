// npm run secrets: writes .env with a strong random value for every secret docker compose needs (ADR 0031), and the
// NATS TLS files that go with it (D25, ADR 0065): a CA of its own and the nats service's certificate, in the folder
// NATS_TLS_DIR names (deploy/nats/tls for the project's .env, else `nats-tls` beside the file; existing ones are kept).
// `--force` replaces an existing .env and its TLS files (a new CA); `--out <file>` writes elsewhere (CI checks the
// compose file with one). `--nats-tls` makes only the TLS files that are missing and leaves .env alone; with `--force`,
// a new certificate from the same CA (docs/operations.md "NATS over TLS").
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_ENTRIES, makeComposeNatsTls, natsTlsDirFor, writeEnvFile } from './lib/secrets.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const args = process.argv.slice(2);
const force = args.includes('--force');
const tlsOnly = args.includes('--nats-tls');
const outAt = args.indexOf('--out');
const path = resolve(ROOT, outAt >= 0 ? (args[outAt + 1] ?? '') : '.env');
const unknown = args.filter((arg, i) => !['--force', '--out', '--nats-tls'].includes(arg) && !(outAt >= 0 && i === outAt + 1));
if (unknown.length > 0 || (outAt >= 0 && !args[outAt + 1])) {
  console.error('Usage: npm run secrets [-- --force] [-- --out <file>] [-- --nats-tls]');
  process.exit(2);
}

const natsTlsDir = natsTlsDirFor(path);
const said = (tls) => (tls.made.ca ? 'a new CA and certificate' : tls.made.cert ? 'a new certificate from its CA' : 'kept as they were');

if (tlsOnly) {
  const tls = makeComposeNatsTls(natsTlsDir, { renew: force });
  console.log(`NATS TLS files in ${natsTlsDir}: ${said(tls)}.`);
  const env = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (!/^NATS_TLS_DIR=/m.test(env)) console.log(`Add this line to ${path}: NATS_TLS_DIR=${natsTlsDir}`);
  if (tls.made.ca) console.log('A new CA: `docker compose up -d --force-recreate`, so the nats container and every app take it.');
  else if (tls.made.cert) console.log('A new certificate from the same CA: `docker compose restart nats`; the apps reconnect by themselves.');
  process.exit(0);
}

if (existsSync(path) && !force) {
  console.error(`${path} exists and was left as it is; pass --force to replace it (its secrets are lost, and PostgreSQL keeps the password it was first started with).`);
  const same = outAt >= 0 ? ` --out ${args[outAt + 1]}` : '';
  if (!/^NATS_TLS_DIR=/m.test(readFileSync(path, 'utf8'))) console.error(`It has no NATS_TLS_DIR: \`npm run secrets -- --nats-tls${same}\` makes the NATS TLS files and names the line to add.`);
  process.exit(1);
}
// Every secret new, the NATS CA too: the certificate and the CA its clients trust are made together.
if (force) rmSync(resolve(ROOT, natsTlsDir), { recursive: true, force: true });
const tls = makeComposeNatsTls(natsTlsDir);
if (writeEnvFile(path, { force, natsTlsDir }) === 'exists') {
  console.error(`${path} exists and was left as it is; pass --force to replace it.`);
  process.exit(1);
}
console.log(`Wrote ${path} (mode 0600): ${ENV_ENTRIES.map((entry) => entry.name).join(', ')}. The admin password is its ADMIN_PASSWORD.`);
console.log(`NATS TLS files in ${natsTlsDir} (git-ignored; keys mode 0600): ${said(tls)}.`);

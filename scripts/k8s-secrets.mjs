// node scripts/k8s-secrets.mjs [--out <dir>] [--force]: fills in k8s/secrets.example with random values (ADR 0031,
// ADR 0051) and prints the kubectl commands that create the Secrets and the jwt-public-keys ConfigMap from them. The
// examples name the keys each Secret holds; a key commented out there (Stripe, SMTP) is left for the operator to add.
// Nothing is sent to a cluster; the files are written owner-only (mode 0600) under tmp/ (git-ignored) by default.
// It also makes the NATS TLS files (nats-tls/ under the same folder, D25, ADR 0065): a CA of their own and a
// certificate for the dev NATS's Service names, for the nats-tls Secret and the nats-ca ConfigMap
// (k8s/secrets.example/nats-tls.md).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomSecret } from './lib/secrets.mjs';
import { natsPassword } from './lib/nats-permissions.mjs';
import { signingKeysEnv } from './lib/system.mjs';
import { generateBusKeys } from './lib/bus-keys.mjs';
import { makeTlsFiles } from './lib/tls.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLES = join(ROOT, 'k8s', 'secrets.example');
const NAMESPACE = 'site-market';

/**
 * The names the dev overlay's NATS certificate is for: the client Service `nats` (NATS_HOST in platform.env) in every
 * spelling, each server by the headless Service (nats-0.nats-headless ...), and loopback for a port-forward. Clients
 * that learn a server's pod address from the cluster keep checking it against the name they first connected to.
 */
function natsNames(namespace) {
  const spellings = (host) => [host, `${host}.${namespace}`, `${host}.${namespace}.svc`, `${host}.${namespace}.svc.cluster.local`];
  return [...spellings('nats'), ...spellings('*.nats-headless'), 'localhost', '127.0.0.1'];
}

/**
 * How each key is made, given the file it goes in; `keys` is the signing pair shared by auth-service's Secret and the
 * public-keys ConfigMap, `bus` every app's bus key (its own Secret) and their public halves (bus-public-keys).
 */
function makers(keys, bus) {
  return {
    BUS_SIGNING_KEY: (file) => bus.signingKeys[file.replace(/-secrets\.env$/, '')],
    BUS_PUBLIC_KEYS: () => bus.publicKeys,
    NATS_PASSWORD: natsPassword,
    NATS_OPERATOR_PASSWORD: natsPassword,
    REDIS_PASSWORD: () => randomSecret(24),
    DATABASE_PASSWORD: () => randomSecret(24),
    POSTGRES_PASSWORD: () => randomSecret(24),
    ADMIN_PASSWORD: () => randomSecret(18),
    S3_ACCESS_KEY: () => `gateway${randomBytes(8).toString('hex')}`,
    S3_SECRET_KEY: () => randomSecret(30),
    // One line: kubectl's env files have no multi-line values, and auth-service reads \n escapes.
    JWT_PRIVATE_KEY: () => keys.JWT_PRIVATE_KEY.trim().replace(/\n/g, '\\n'),
    JWT_PUBLIC_KEYS: () => keys.JWT_PUBLIC_KEYS,
  };
}

/** An example file with every uncommented `KEY=` given a value; comments and commented-out keys are kept as they are. */
function filledIn(text, make, file) {
  return text
    .split('\n')
    .map((line) => {
      const key = /^([A-Z][A-Z0-9_]*)=$/.exec(line)?.[1];
      if (!key) return line;
      if (!make[key]) throw new Error(`${file}: no maker for ${key}; add one to scripts/k8s-secrets.mjs`);
      const value = make[key](file);
      if (!value) throw new Error(`${file}: no value for ${key}`);
      return `${key}=${value}`;
    })
    .join('\n');
}

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(ROOT, outAt >= 0 ? (args[outAt + 1] ?? '') : 'tmp/k8s-secrets');
const force = args.includes('--force');
if (args.some((arg, i) => !['--out', '--force'].includes(arg) && !(outAt >= 0 && i === outAt + 1)) || (outAt >= 0 && !args[outAt + 1])) {
  console.error('Usage: node scripts/k8s-secrets.mjs [--out <dir>] [--force]');
  process.exit(2);
}
mkdirSync(out, { recursive: true, mode: 0o700 });
if (!force && readdirSync(out).some((name) => name.endsWith('.env'))) {
  console.error(`${out} already holds secrets; pass --force to replace them (the old values are lost).`);
  process.exit(1);
}

const make = makers(signingKeysEnv(), generateBusKeys());
const commands = [];
for (const name of readdirSync(EXAMPLES).filter((file) => file.endsWith('.env')).sort()) {
  const path = join(out, name);
  writeFileSync(path, filledIn(readFileSync(join(EXAMPLES, name), 'utf8'), make, name), { mode: 0o600 });
  const object = name.replace(/\.env$/, '');
  const kind = object.endsWith('-public-keys') ? 'configmap' : 'secret generic';
  commands.push(`kubectl -n ${NAMESPACE} create ${kind} ${object} --from-env-file=${relative(process.cwd(), path) || path}`);
}
// The dev NATS's certificate and the CA every app trusts (nats-tls.md): new with the other secrets.
const tlsDir = join(out, 'nats-tls');
rmSync(tlsDir, { recursive: true, force: true });
const tls = makeTlsFiles(tlsDir, { names: natsNames(NAMESPACE), caName: 'Site Market dev NATS CA' });
const at = (path) => relative(process.cwd(), path) || path;
commands.push(
  `kubectl -n ${NAMESPACE} create secret generic nats-tls --type=kubernetes.io/tls --from-file=ca.crt=${at(tls.ca)} --from-file=tls.crt=${at(tls.cert)} --from-file=tls.key=${at(tls.key)}`,
  `kubectl -n ${NAMESPACE} create configmap nats-ca --from-file=ca.crt=${at(tls.ca)}`,
);
console.log(`Wrote ${out} (mode 0600). Add the Stripe and SMTP keys for prod, then create them (namespace first):`);
console.log(`kubectl create namespace ${NAMESPACE}`);
for (const command of commands) console.log(command);
console.log('postgres-secrets, nats-secrets and nats-tls are for the dev overlay only; for prod, make nats-ca from the managed NATS\'s CA instead.');

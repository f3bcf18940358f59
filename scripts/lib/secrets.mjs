// The values docker compose needs from .env (ADR 0031): a strong random value for every secret, written owner-only.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ROOT, signingKeysEnv } from './system.mjs';
import { natsPassword, natsPasswordVariable, NATS_OPERATOR, partyVariable } from './nats-permissions.mjs';
import { BUS_PARTIES, busSigningKeyVariable, generateBusKeys } from './bus-keys.mjs';
import { makeTlsFiles } from './tls.mjs';

/** A random value of `bytes` bytes, URL- and shell-safe (base64url). */
export const randomSecret = (bytes) => randomBytes(bytes).toString('base64url');

// Every NATS user (ADR 0035): the processes (nats-permissions.spec.ts checks them against contracts) and the operator.
const NATS_USERS = [...BUS_PARTIES, NATS_OPERATOR];
const NATS_ENTRIES = NATS_USERS.map((user) => ({
  name: natsPasswordVariable(user),
  about:
    user === NATS_OPERATOR
      ? "The NATS operator's password (ADR 0035): every subject, for the nats CLI (streams, consumers, dead letters); no process gets it."
      : `${user}'s own NATS password (ADR 0035): nats-server's deploy/nats/auth.conf reads it, and ${user}'s NATS_URL carries it.`,
  value: () => natsPassword(),
}));

// Every process's Redis ACL user (D25, ADR 0065): compose's redis writes its ACL from these.
const REDIS_ENTRIES = BUS_PARTIES.map((user) => ({
  name: partyVariable('REDIS', user, 'PASSWORD'),
  about: `${user}'s own Redis password (ADR 0065): the redis container's ACL user ${user}, and ${user}'s REDIS_URL carries it.`,
  value: () => natsPassword(),
}));

// Every process's bus key (D25, ADR 0065): made together, so the public keys match the private ones.
const BUS_ENTRIES = [
  ...BUS_PARTIES.map((party) => ({
    name: busSigningKeyVariable(party),
    about: `${party}'s own bus signing key (Ed25519 seed; ADR 0065): it signs what ${party} sends on NATS. Only ${party} gets it.`,
    value: (shared) => (shared.bus ??= generateBusKeys()).signingKeys[party],
  })),
  {
    name: 'BUS_PUBLIC_KEYS',
    about: "Every process's public bus key: every process checks requests, replies and events against them. To rotate one, list its old and new key (docs/operations.md).",
    value: (shared) => (shared.bus ??= generateBusKeys()).publicKeys,
  },
];

/**
 * Every value `docker compose` reads from .env, in file order. To add one (a new secret in docker-compose.yml as
 * `${NAME:?…}`), add an entry: `value` makes it; `about` is the comment written above it.
 */
export const ENV_ENTRIES = [
  {
    name: 'POSTGRES_PASSWORD',
    about: "PostgreSQL's superuser password: the postgres container and every service's DATABASE_URL. PostgreSQL keeps the password it was first started with in its volume.",
    value: () => randomSecret(24),
  },
  {
    name: 'ADMIN_PASSWORD',
    about: "The first admin's password (ADMIN_EMAIL, default admin@example.com). Used only while no admin exists; change it in the app afterwards.",
    value: () => randomSecret(18),
  },
  {
    name: 'S3_SECRET_KEY',
    about: "The gateway's S3 secret key (screenshots); in compose also the s3 service's root secret.",
    value: () => randomSecret(30),
  },
  {
    name: 'JWT_PRIVATE_KEY',
    about: "auth-service's key for signing access tokens (EC P-256, PEM with \\n escapes; ADR 0030). Only auth-service gets it.",
    value: (shared) => (shared.keys ??= signingKeysEnv()).JWT_PRIVATE_KEY.trim().replace(/\n/g, '\\n'),
  },
  {
    name: 'JWT_PUBLIC_KEYS',
    about: "The public half of JWT_PRIVATE_KEY as a JWKS: every process verifies tokens with it. To rotate, list the old and the new key here (docs/operations.md).",
    value: (shared) => (shared.keys ??= signingKeysEnv()).JWT_PUBLIC_KEYS,
  },
  {
    name: 'PAYMENTS_PROVIDER',
    about: 'The card provider (ADR 0033): sandbox moves no real money and every page says TEST MODE; stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET here too.',
    value: () => 'sandbox',
  },
  ...NATS_ENTRIES,
  {
    name: 'NATS_TLS_DIR',
    about:
      "Not a secret: the folder of compose's NATS TLS files, made with this .env (D25, ADR 0065): the nats container gets the server's certificate and key, every app the CA that signed it (its NATS_URL trusts that CA alone); the CA's key stays in the folder.",
    value: (shared) => shared.natsTlsDir ?? COMPOSE_NATS_TLS_DIR,
  },
  ...REDIS_ENTRIES,
  ...BUS_ENTRIES,
];

/** Where `npm run secrets` puts compose's NATS TLS files for the project's own .env (git-ignored). */
export const COMPOSE_NATS_TLS_DIR = './deploy/nats/tls';

/**
 * The NATS TLS folder that goes with the .env at `envPath`: `deploy/nats/tls` for the project's own .env, else a
 * `nats-tls` folder beside that file (a scratch .env never touches the real one's certificate). As .env names it:
 * relative to the project (where compose resolves it) when inside it, else absolute.
 */
export function natsTlsDirFor(envPath) {
  const path = resolve(envPath);
  if (path === join(ROOT, '.env')) return COMPOSE_NATS_TLS_DIR;
  const dir = join(dirname(path), 'nats-tls');
  const inside = relative(ROOT, dir);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? `./${inside}` : dir;
}

/** The host names compose's NATS certificate is for: its service name, and the container's own loopback. */
export const COMPOSE_NATS_NAMES = ['nats', 'localhost', '127.0.0.1'];

/**
 * Makes compose's NATS TLS files under `dir` (relative to the project, as .env names it) where missing: a CA of their
 * own and a certificate for COMPOSE_NATS_NAMES signed by it; `renew` makes a new certificate from the same CA.
 */
export function makeComposeNatsTls(dir, { renew = false } = {}) {
  return makeTlsFiles(resolve(ROOT, dir), { names: COMPOSE_NATS_NAMES, caName: 'Site Market compose NATS CA', renew });
}

/**
 * The .env text for the entries: each value under a comment saying what it is for. `natsTlsDir` is the NATS_TLS_DIR
 * it names (natsTlsDirFor).
 */
export function envFileText(entries = ENV_ENTRIES, { natsTlsDir } = {}) {
  const header = '# Written by `npm run secrets` (ADR 0031). Keep this file private; docker compose reads it.\n';
  // Entries made together (a key pair) share what they generate through `shared`.
  const shared = { natsTlsDir };
  return header + entries.map((entry) => `\n# ${entry.about}\n${entry.name}=${entry.value(shared)}\n`).join('');
}

/**
 * Writes the .env at `path` with mode 0600. An existing file is kept unless `force` (its values would be lost), and
 * then the answer is `exists`; else `written`. The secrets are never in a file anyone else may read, even for a
 * moment: a new .env is created 0600 before its first byte, and a replaced one is written to a 0600 temporary file
 * beside it that is then renamed over it (never rewritten in place, where it would keep its old mode until a chmod).
 */
export function writeEnvFile(path, { force = false, entries = ENV_ENTRIES, natsTlsDir } = {}) {
  const text = envFileText(entries, { natsTlsDir });
  if (!force) {
    try {
      writePrivately(path, text);
    } catch (error) {
      if (error.code === 'EEXIST') return 'exists';
      throw error;
    }
    return 'written';
  }
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writePrivately(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return 'written';
}

/** Creates `path` (never an existing file), mode exactly 0600 before the first byte, and writes `text` to disk. */
function writePrivately(path, text) {
  const fd = openSync(path, 'wx', 0o600);
  try {
    // The creation mode passes through the umask; set it exactly before any secret is written.
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

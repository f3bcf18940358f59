// Every process's bus key (D25, ADR 0065) for the processes a script starts, in the format the services read.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { partyVariable } from './nats-permissions.mjs';

/** The processes of the bus, each with a key of its own (contracts' NATS_PARTIES). */
export const BUS_PARTIES = ['gateway', 'auth-service', 'listings-service', 'bidding-service', 'billing-service', 'admin-service', 'notifications-service'];

// The last 32 bytes of an Ed25519 key's PKCS#8 and SPKI documents are the seed and the public key (RFC 8410).
const lastBytes = (der) => der.subarray(der.length - 32).toString('base64url');

/** A fresh key per process: each one's BUS_SIGNING_KEY, and the BUS_PUBLIC_KEYS every process reads. */
export function generateBusKeys() {
  const signingKeys = {};
  const publicKeys = {};
  for (const party of BUS_PARTIES) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    signingKeys[party] = lastBytes(privateKey.export({ format: 'der', type: 'pkcs8' }));
    publicKeys[party] = [lastBytes(publicKey.export({ format: 'der', type: 'spki' }))];
  }
  return { signingKeys, publicKeys: JSON.stringify(publicKeys) };
}

/** The bus keys kept in `file` (mode 0600), made on first use, so restarts keep them; fresh ones without a file. */
export function busKeys(file = null) {
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const keys = generateBusKeys();
  if (file) writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  return keys;
}

/** The bus variables of one process. */
export function busEnv(keys, party) {
  return { BUS_SIGNING_KEY: keys.signingKeys[party], BUS_PUBLIC_KEYS: keys.publicKeys };
}

/** The .env and compose variable holding one process's signing key: BUS_AUTH_SIGNING_KEY, BUS_GATEWAY_SIGNING_KEY. */
export function busSigningKeyVariable(party) {
  return partyVariable('BUS', party, 'SIGNING_KEY');
}

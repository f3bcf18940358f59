// A private CA and a server certificate signed by it, made with openssl (D25, ADR 0065): what the bus carries is never
// in clear on the wire. npm start's own NATS (infra.mjs), compose's (`npm run secrets`) and the Kubernetes dev overlay's
// (scripts/k8s-secrets.mjs) each have their own, for the names their clients connect to.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';

/** The files under a TLS directory: the CA (certificate, key), the server's certificate and key. */
export const TLS_FILE_NAMES = { ca: 'ca.pem', caKey: 'ca-key.pem', cert: 'server.pem', key: 'server-key.pem' };

/** The paths of the TLS files under `dir`. */
export function tlsFiles(dir) {
  return Object.fromEntries(Object.entries(TLS_FILE_NAMES).map(([what, name]) => [what, join(dir, name)]));
}

/** True when openssl is on the PATH. */
export function opensslInstalled() {
  return spawnSync('sh', ['-c', 'command -v openssl'], { stdio: 'ignore' }).status === 0;
}

/**
 * Under `dir` (made mode 0700): a CA (`ca.pem`, `ca-key.pem`) unless one is there, and a certificate for `names` signed
 * by it (`server.pem`, `server-key.pem`) unless one is there, the CA is new, or `renew`. `names` are host names and IP
 * addresses, all in the certificate's subjectAltName (the first is its common name); `caName` is the CA's common name.
 * Keys are mode 0600, certificates 0644 (a container's non-root user reads the CA). Answers the paths (`tlsFiles`) and
 * what was made (`made.ca`, `made.cert`). Throws when openssl is missing or fails, or a certificate is due and the CA's
 * key is gone (remove the directory to start over).
 */
export function makeTlsFiles(dir, { names, caName, renew = false, caDays = 3650, certDays = 825 }) {
  if (!Array.isArray(names) || names.length === 0) throw new Error('makeTlsFiles: name the host names or addresses the certificate is for');
  const files = tlsFiles(dir);
  const newCa = !existsSync(files.ca);
  const newCert = newCa || renew || !existsSync(files.cert) || !existsSync(files.key);
  if (!newCa && !newCert) return { ...files, made: { ca: false, cert: false } };
  if (!opensslInstalled()) throw new Error('openssl is not installed: it makes the NATS certificate (Debian/Ubuntu: sudo apt-get install openssl)');
  if (!newCa && !existsSync(files.caKey)) throw new Error(`${dir} has a CA without its key (${TLS_FILE_NAMES.caKey}): remove the directory to make a new CA`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const run = (args) => {
    const result = spawnSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${(result.stderr ?? '').trim().split('\n').pop()}`);
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  if (newCa) run(['req', '-x509', ...ec, '-keyout', TLS_FILE_NAMES.caKey, '-out', TLS_FILE_NAMES.ca, '-days', String(caDays), '-subj', `/CN=${caName}`]);
  run(['req', ...ec, '-keyout', TLS_FILE_NAMES.key, '-out', 'server.csr', '-subj', `/CN=${names[0]}`]);
  const san = names.map((name) => (isIP(name) ? `IP:${name}` : `DNS:${name}`)).join(',');
  writeFileSync(join(dir, 'server.cnf'), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`, { mode: 0o600 });
  try {
    run(['x509', '-req', '-in', 'server.csr', '-CA', TLS_FILE_NAMES.ca, '-CAkey', TLS_FILE_NAMES.caKey, '-CAcreateserial', '-out', TLS_FILE_NAMES.cert, '-days', String(certDays), '-extfile', 'server.cnf']);
  } finally {
    for (const scratch of ['server.csr', 'server.cnf']) rmSync(join(dir, scratch), { force: true });
  }
  for (const key of [files.caKey, files.key]) chmodSync(key, 0o600);
  for (const certificate of [files.ca, files.cert]) chmodSync(certificate, 0o644);
  return { ...files, made: { ca: newCa, cert: true } };
}

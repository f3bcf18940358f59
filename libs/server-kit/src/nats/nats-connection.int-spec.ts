import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/env';
import { eventually } from '../testing/eventually';
import { connectNats } from './nats.connection';

const openssl = (dir: string, args: string[]) => {
  const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args[0]}: ${result.stderr}`);
};
/** A CA in `dir` (ca.pem), and, with `server`, a certificate for 127.0.0.1 and localhost (the name nats.js checks for an address) signed by it. */
const makeCa = (dir: string, server: boolean) => {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=test ca']);
  if (!server) return;
  openssl(dir, ['req', ...ec, '-keyout', 'server-key.pem', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(join(dir, 'server.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.cnf']);
};
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A NATS server of its own serving TLS with a private CA: a process that does not believe its certificate stops at once. */
describe('connecting to a NATS that speaks TLS (ADR 0066)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nats-tls-'));
  const other = mkdtempSync(join(tmpdir(), 'nats-other-ca-'));
  let server: ChildProcess;
  let port: number;

  beforeAll(async () => {
    makeCa(dir, true);
    makeCa(other, false);
    port = await freePort();
    server = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '--tls', '--tlscert', join(dir, 'server.pem'), '--tlskey', join(dir, 'server-key.pem')], { stdio: 'ignore' });
    await eventually(
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = new Socket().once('error', reject).connect(port, '127.0.0.1', () => (socket.destroy(), resolve()));
        }),
    );
  });
  afterAll(() => {
    server?.kill();
    for (const path of [dir, other]) rmSync(path, { recursive: true, force: true });
  });

  it('connects with the CA that signed the server', async () => {
    const nc = await connectNats(`tls://127.0.0.1:${port}?ca=${join(dir, 'ca.pem')}`, 'tls-test');
    await nc.flush();
    await nc.close();
  });

  it("stops with one line naming NATS_URL, instead of retrying forever, for another CA's server or a CA file that is not there", async () => {
    for (const ca of [join(other, 'ca.pem'), join(other, 'missing.pem')]) {
      const refused = connectNats(`tls://127.0.0.1:${port}?ca=${ca}`, 'tls-test');
      await expect(refused).rejects.toBeInstanceOf(ConfigError);
      await expect(refused).rejects.toThrow(/^Invalid configuration: NATS_URL: its server's TLS certificate is not believed/);
    }
  });
});

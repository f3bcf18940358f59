import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { EventParty } from '@market/contracts';
import { busEnvOf } from '@market/server-kit/testing';

const ROOT = resolve(__dirname, '../../../..');

export interface ServiceProcess {
  pid: number;
  healthUrl: string;
  /** Output so far, for failure messages. */
  output(): string;
  /** The exit code once it has exited (null while it runs, or when a signal ended it). */
  exitCode(): number | null;
  /** True until it has exited or been ended by a signal. */
  running(): boolean;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * Runs a built service (apps/<name>/dist/main.js, which `npm test` builds first) as its own process, so a test can
 * SIGKILL it; resolves once its /readyz answers.
 */
export async function startServiceProcess(name: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ServiceProcess> {
  const main = join(ROOT, 'apps', name, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: build the apps first (npm test does)`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: ROOT,
    // A test stack's environment holds every process's test key: this process gets its own (D25).
    env: { ...process.env, ...childEnv(env, name), HEALTH_PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const healthUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${log}`);
    const ready = await fetch(`${healthUrl}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    pid: child.pid as number,
    healthUrl,
    output: () => log,
    exitCode: () => child.exitCode,
    running: () => child.exitCode === null && child.signalCode === null,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A child's environment: its own bus key from a test stack's, and none of the other processes' keys. */
function childEnv(env: Record<string, string>, name: string): Record<string, string> {
  const { BUS_TEST_SIGNING_KEYS: _all, ...own } = env.BUS_TEST_SIGNING_KEYS ? busEnvOf(env, name as EventParty) : env;
  return own;
}

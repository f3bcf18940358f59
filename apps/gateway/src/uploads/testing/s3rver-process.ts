// s3rver in a child process, so what it allocates does not count against the gateway in this test process.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

// Arguments: the s3rver module's path, then the directory it stores under. It ends when its parent does (stdin closes).
const SCRIPT = `
process.stdin.on('end', () => process.exit(0)).resume();
const [modulePath, directory] = process.argv.slice(1);
const S3rver = require(modulePath);
new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true })
  .run()
  .then(({ port }) => console.log(JSON.stringify({ port })), (error) => { console.error(error); process.exit(1); });
`;

/** Starts s3rver storing under `dir`; resolves with its endpoint once it listens. */
export async function startS3rverProcess(dir: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SCRIPT, require.resolve('s3rver'), dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`s3rver exited with code ${String(code)} before listening`);
  });
  const listening = (async () => {
    for await (const line of createInterface({ input: child.stdout })) return JSON.parse(line) as { port: number };
    throw new Error('s3rver closed its output before listening');
  })();
  const { port } = await Promise.race([listening, exited]);
  exited.catch(() => undefined);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

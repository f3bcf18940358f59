import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createFailFastRedis } from '../jobs/redis';
import { eventually } from '../testing';
import { watchQueue } from './queue.metrics';
import { scrapeMetrics } from './registry';

// A Redis of this test's own, so it can be stopped (never the shared one).
const PORT = 6397;
const redisCli = (...args: string[]) =>
  execFileSync('redis-cli', ['-p', String(PORT), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

const jobs = async (queue: string, state: string): Promise<number | undefined> => {
  const line = (await scrapeMetrics()).body.split('\n').find((l) => l.startsWith('market_queue_jobs{') && l.includes(`queue="${queue}"`) && l.includes(`state="${state}"`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

describe('BullMQ queue gauges (ADR 0048)', () => {
  let connection: Redis;
  let queue: Queue;
  let unwatch: () => void;
  const name = `metrics-${randomUUID()}`;

  beforeAll(async () => {
    execFileSync('redis-server', ['--port', String(PORT), '--save', '', '--appendonly', 'no', '--daemonize', 'yes']);
    await eventually(() => expect(redisCli('ping')).toBe('PONG'));
    connection = createFailFastRedis(`redis://127.0.0.1:${PORT}`, 'queue-metrics-test');
    queue = new Queue(name, { connection, prefix: `test_${randomUUID()}` });
    // The test stops this Redis on purpose: its connection errors are expected.
    queue.on('error', () => undefined);
    unwatch = watchQueue(queue);
  });
  afterAll(async () => {
    unwatch?.();
    connection?.disconnect();
    try {
      redisCli('shutdown', 'nosave');
    } catch {
      // Already stopped by the test.
    }
  });

  it('reports jobs by state, and skips the queue at once while its Redis is down', async () => {
    await queue.add('a', {}, { delay: 60_000 });
    await queue.add('b', {}, { delay: 60_000 });
    await queue.add('c', {});
    expect(await jobs(name, 'delayed')).toBe(2);
    expect(await jobs(name, 'waiting')).toBe(1);
    expect(await jobs(name, 'failed')).toBe(0);

    try {
      redisCli('shutdown', 'nosave');
    } catch {
      // redis-cli reports the connection it lost by shutting the server down.
    }
    await eventually(() => expect(connection.status).not.toBe('ready'));
    const started = Date.now();
    expect(await jobs(name, 'delayed')).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

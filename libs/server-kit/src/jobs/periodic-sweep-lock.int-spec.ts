import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { createTestDatabase, eventually, type TestDatabase } from '../testing';
import { openServiceDatabase } from '../database/data-source';
import { PeriodicSweep } from './periodic-sweep';

const logger = { warn: () => undefined, debug: () => undefined } as unknown as Logger;

/** Work that waits until released, counting its runs. */
function gatedWork() {
  const state = { runs: 0, release: () => undefined as void, started: Promise.resolve() };
  let started: () => void = () => undefined;
  state.started = new Promise<void>((done) => (started = done));
  const work = async () => {
    state.runs += 1;
    started();
    await new Promise<void>((done) => (state.release = done));
    return state.runs;
  };
  return { state, work };
}

describe('PeriodicSweep across replicas (PostgreSQL advisory lock)', () => {
  let db: TestDatabase;
  // Two replicas of one service: same database and schema, each with its own pool.
  let replicaA: DataSource;
  let replicaB: DataSource;
  let otherService: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('sweep_lock');
    const open = (schema: string) => openServiceDatabase({ url: db.url, schema, entities: [], migrations: [] });
    replicaA = await open('kit_test');
    replicaB = await open('kit_test');
    otherService = await open('other_test');
  });

  afterAll(async () => {
    await Promise.all([replicaA, replicaB, otherService].map((ds) => ds?.destroy()));
    await db?.drop();
  });

  it('runs a sweep on one replica at a time: the other skips that tick, then runs once the lock is free', async () => {
    const a = gatedWork();
    const b = gatedWork();
    const sweepA = new PeriodicSweep({ label: 'Test sweep', intervalMs: 60_000, logger, onFailure: -1, onSkipped: 0, lock: replicaA }, a.work);
    const sweepB = new PeriodicSweep({ label: 'Test sweep', intervalMs: 60_000, logger, onFailure: -1, onSkipped: 0, lock: replicaB }, b.work);

    const runA = sweepA.run();
    await a.state.started;
    expect(await sweepB.run()).toBe(0);
    expect(b.state.runs).toBe(0);

    a.state.release();
    expect(await runA).toBe(1);
    const runB = sweepB.run();
    await b.state.started;
    b.state.release();
    expect(await runB).toBe(1);
    // And the lock went back with B's run: A gets it again.
    const again = sweepA.run();
    await eventually(() => expect(a.state.runs).toBe(2));
    a.state.release();
    expect(await again).toBe(2);
  });

  it('does not block another sweep label, nor the same label of another service', async () => {
    const a = gatedWork();
    const sweepA = new PeriodicSweep({ label: 'Test sweep', intervalMs: 60_000, logger, onFailure: -1, onSkipped: 0, lock: replicaA }, a.work);
    const other = new PeriodicSweep({ label: 'Other sweep', intervalMs: 60_000, logger, onFailure: -1, onSkipped: 0, lock: replicaB }, async () => 7);
    const otherSchema = new PeriodicSweep({ label: 'Test sweep', intervalMs: 60_000, logger, onFailure: -1, onSkipped: 0, lock: otherService }, async () => 8);
    const runA = sweepA.run();
    await a.state.started;
    expect(await other.run()).toBe(7);
    expect(await otherSchema.run()).toBe(8);
    a.state.release();
    expect(await runA).toBe(1);
  });

  it('frees the lock when the work fails', async () => {
    const failing = new PeriodicSweep({ label: 'Failing sweep', intervalMs: 60_000, logger, onFailure: -1, onSkipped: 0, lock: replicaA }, async () => {
      throw new Error('boom');
    });
    expect(await failing.run()).toBe(-1);
    const next = new PeriodicSweep({ label: 'Failing sweep', intervalMs: 60_000, logger, onFailure: -1, onSkipped: 0, lock: replicaB }, async () => 5);
    expect(await next.run()).toBe(5);
  });
});

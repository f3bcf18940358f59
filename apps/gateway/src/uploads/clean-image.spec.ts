import { parseEnvOrThrow } from '@market/server-kit';
import { gatewayEnv } from '../gateway.config';
import { CleaningAborted, ImageCleaner, Turns } from './clean-image';

/** A piece of work that runs until the test ends it. */
function job() {
  let finish!: () => void;
  let started = false;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      started = true;
      await done;
    },
    started: () => started,
    finish: () => finish(),
  };
}

describe('UPLOADS_MAX_DECODING, UPLOADS_DEADLINE_MS, UPLOADS_IDLE_MS (ADR 0029)', () => {
  const env = { UPLOADS_MAX_DECODING: gatewayEnv.UPLOADS_MAX_DECODING, UPLOADS_DEADLINE_MS: gatewayEnv.UPLOADS_DEADLINE_MS, UPLOADS_IDLE_MS: gatewayEnv.UPLOADS_IDLE_MS };

  it('default to 2 images decoded at once, 60 s for a body and 10 s without a byte', () => {
    expect(parseEnvOrThrow(env, {})).toEqual({ UPLOADS_MAX_DECODING: 2, UPLOADS_DEADLINE_MS: 60_000, UPLOADS_IDLE_MS: 10_000 });
    expect(new ImageCleaner(parseEnvOrThrow(env, { UPLOADS_MAX_DECODING: '1' })).maxDecoding).toBe(1);
  });

  it.each([
    [{ UPLOADS_MAX_DECODING: '0' }, /^Invalid configuration: UPLOADS_MAX_DECODING: /],
    [{ UPLOADS_MAX_DECODING: 'cores' }, /^Invalid configuration: UPLOADS_MAX_DECODING: /],
    [{ UPLOADS_DEADLINE_MS: '10' }, /^Invalid configuration: UPLOADS_DEADLINE_MS: /],
    [{ UPLOADS_IDLE_MS: 'soon' }, /^Invalid configuration: UPLOADS_IDLE_MS: /],
  ])('refuses %j with one line naming it', (values, message) => {
    expect(() => parseEnvOrThrow(env, values)).toThrow(message);
  });
});

describe('Turns: at most N images decoded at once', () => {
  it('runs at most `max` at once and starts the next in arrival order as each finishes', async () => {
    const turns = new Turns(2);
    const jobs = [job(), job(), job(), job()];
    const runs = jobs.map((j) => turns.run(j.work));
    await Promise.resolve();
    expect(jobs.map((j) => j.started())).toEqual([true, true, false, false]);
    expect(turns.active()).toBe(2);
    jobs[1].finish();
    await runs[1];
    expect(jobs.map((j) => j.started())).toEqual([true, true, true, false]);
    expect(turns.active()).toBe(2);
    for (const j of jobs) j.finish();
    await Promise.all(runs);
    expect(turns.active()).toBe(0);
  });

  it('lets a queued piece of work leave when its upload is abandoned, without running it or holding a turn', async () => {
    const turns = new Turns(1);
    const first = job();
    const abandoned = job();
    const after = job();
    const running = turns.run(first.work);
    const aborted = new AbortController();
    const leaving = turns.run(abandoned.work, aborted.signal);
    const waiting = turns.run(after.work);
    aborted.abort();
    await expect(leaving).rejects.toBeInstanceOf(CleaningAborted);
    first.finish();
    await running;
    after.finish();
    await waiting;
    expect([abandoned.started(), after.started(), turns.active()]).toEqual([false, true, 0]);
    // An upload abandoned before it asked is refused at once.
    await expect(turns.run(job().work, aborted.signal)).rejects.toBeInstanceOf(CleaningAborted);
  });
});

import type { NatsConnection } from 'nats';
import { BrowseListingsQuerySchema } from '@market/contracts';
import type { GatewayConfig } from '../gateway.config';
import { BrowseCache } from './browse-cache';

const cache = (ttl: number) => new BrowseCache({ BROWSE_CACHE_MS: ttl, BROWSE_STALE_AFTER_MS: 500, EVENTS_PREFIX: 'test' } as GatewayConfig, {} as NatsConnection);
const query = (raw: Record<string, unknown> = {}) => BrowseListingsQuerySchema.parse(raw);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BrowseCache', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a repeated query from memory, then serves the old page once while a fresh one loads', async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ['setImmediate'] });
    const browse = cache(2000);
    const load = jest.fn().mockResolvedValueOnce('one').mockResolvedValueOnce('two');
    expect(await browse.get(query(), load)).toBe('one');
    jest.setSystemTime(1999);
    expect(await browse.get(query({ sort_by: 'created_at' }), load)).toBe('one');
    expect(load).toHaveBeenCalledTimes(1);
    jest.setSystemTime(2000);
    expect(await browse.get(query(), load)).toBe('one');
    expect(load).toHaveBeenCalledTimes(2);
    await settle();
    expect(await browse.get(query(), load)).toBe('two');
  });

  it('shares one load between concurrent identical requests, and keeps different queries apart', async () => {
    const browse = cache(2000);
    let resolve!: (value: string) => void;
    const load = jest.fn(() => new Promise<string>((r) => (resolve = r)));
    const first = browse.get(query({ category: 'SaaS' }), load);
    const second = browse.get(query({ category: 'SaaS' }), load);
    resolve('saas');
    expect([await first, await second]).toEqual(['saas', 'saas']);
    expect(load).toHaveBeenCalledTimes(1);
    await browse.get(query({ category: 'Blog' }), async () => 'blog');
    expect(await browse.get(query({ category: 'Blog' }), load)).toBe('blog');
  });

  it('never keeps a failure, not even of a refresh, and forgets everything on clear()', async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ['setImmediate'] });
    const browse = cache(1000);
    await expect(browse.get(query(), () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await browse.get(query(), async () => 'four')).toBe('four');
    jest.setSystemTime(1000);
    expect(await browse.get(query(), () => Promise.reject(new Error('down again')))).toBe('four');
    await settle();
    expect(await browse.get(query(), async () => 'five')).toBe('five');
    browse.clear();
    expect(await browse.get(query(), async () => 'six')).toBe('six');
  });

  it('keeps at most 32 MB of pages, dropping the oldest first, and drops pages left unasked for long', async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ['setImmediate'] });
    const browse = cache(1000);
    const big = 'x'.repeat(12 * 1024 * 1024);
    for (const page of [1, 2, 3]) await browse.get(query({ page }), async () => `${page}${big}`);
    await settle();
    const load = jest.fn(async () => 'reloaded');
    expect(await browse.get(query({ page: 1 }), load)).toBe('reloaded');
    expect((await browse.get(query({ page: 3 }), load)).startsWith('3')).toBe(true);
    jest.setSystemTime(10_000);
    expect(await browse.get(query({ page: 3 }), load)).toBe('reloaded');
  });

  it('answers from the last good page when the listings service is slow or failing, even after a clear', async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ['setImmediate'] });
    const browse = cache(1000);
    expect(await browse.get(query(), async () => 'good')).toBe('good');
    browse.clear();
    let finish!: (text: string) => void;
    const slow = browse.get(query(), () => new Promise<string>((r) => (finish = r)));
    let answered: string | null = null;
    void slow.then((text) => (answered = text));
    jest.advanceTimersByTime(499);
    await settle();
    expect(answered).toBeNull();
    jest.advanceTimersByTime(1);
    expect(await slow).toBe('good');
    // The slow load still lands and is what the next request gets.
    finish('fresh');
    await settle();
    expect(await browse.get(query(), async () => 'unused')).toBe('fresh');
    browse.clear();
    expect(await browse.get(query(), () => Promise.reject(new Error('down')))).toBe('fresh');
  });

  it('waits for the listings service when the last good page is over ten minutes old, or there is none', async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ['setImmediate'] });
    const browse = cache(1000);
    await expect(browse.get(query({ page: 2 }), () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await browse.get(query(), async () => 'old');
    jest.setSystemTime(10 * 60 * 1000 + 1);
    browse.clear();
    await expect(browse.get(query(), () => Promise.reject(new Error('down')))).rejects.toThrow('down');
  });

  it('loads every time when turned off', async () => {
    const browse = cache(0);
    const load = jest.fn(async () => 'page');
    await browse.get(query(), load);
    await browse.get(query(), load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

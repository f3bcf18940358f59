import type { NatsConnection } from 'nats';
import { BrowseListingsQuerySchema, type BrowseListingsResponse } from '@market/contracts';
import type { GatewayConfig } from '../gateway.config';
import { BrowseCache } from './browse-cache';

const page = (total: number): BrowseListingsResponse => ({ listings: [], total, page: 1, pages: 1, limit: 24 });
const cache = (ttl: number) => new BrowseCache({ BROWSE_CACHE_MS: ttl, EVENTS_PREFIX: 'test' } as GatewayConfig, {} as NatsConnection);
const query = (raw: Record<string, unknown> = {}) => BrowseListingsQuerySchema.parse(raw);

describe('BrowseCache', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a repeated query from memory until the time runs out', async () => {
    jest.useFakeTimers({ now: 0 });
    const browse = cache(2000);
    const load = jest.fn().mockResolvedValueOnce(page(1)).mockResolvedValueOnce(page(2));
    expect((await browse.get(query(), load)).total).toBe(1);
    jest.setSystemTime(1999);
    expect((await browse.get(query({ sort_by: 'created_at' }), load)).total).toBe(1);
    jest.setSystemTime(2000);
    expect((await browse.get(query(), load)).total).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shares one load between concurrent identical requests, and keeps different queries apart', async () => {
    const browse = cache(2000);
    let resolve!: (value: BrowseListingsResponse) => void;
    const load = jest.fn(() => new Promise<BrowseListingsResponse>((r) => (resolve = r)));
    const first = browse.get(query({ category: 'SaaS' }), load);
    const second = browse.get(query({ category: 'SaaS' }), load);
    resolve(page(7));
    expect([(await first).total, (await second).total]).toEqual([7, 7]);
    expect(load).toHaveBeenCalledTimes(1);
    await browse.get(query({ category: 'Blog' }), async () => page(3));
    expect((await browse.get(query({ category: 'Blog' }), load)).total).toBe(3);
  });

  it('never keeps a failure, and forgets everything on clear()', async () => {
    const browse = cache(60_000);
    await expect(browse.get(query(), () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await browse.get(query(), async () => page(4))).total).toBe(4);
    browse.clear();
    expect((await browse.get(query(), async () => page(5))).total).toBe(5);
  });

  it('loads every time when turned off', async () => {
    const browse = cache(0);
    const load = jest.fn(async () => page(1));
    await browse.get(query(), load);
    await browse.get(query(), load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

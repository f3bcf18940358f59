import { AppError, badRequest, forbidden, metricsRegistry, overloaded, unavailable } from '@market/server-kit';
import { LISTING_BUSY } from '../auctions/bounded-transaction';
import { bidResultOf, countBid } from './bid.metrics';
import { BIDS_QUEUE_FULL } from './bid-queue';

const counted = async (result: string) => {
  const metric = metricsRegistry.getSingleMetric('market_bids_total');
  return (metric ? (await metric.get()).values : []).find((v) => v.labels.result === result)?.value ?? 0;
};

describe('bid metrics (ADR 0048)', () => {
  it('tells a lock timeout and a full queue (ADR 0058) from a refusal and from an error', () => {
    expect(bidResultOf(overloaded(LISTING_BUSY))).toBe('lock_timeout');
    expect(bidResultOf(unavailable())).toBe('error');
    expect(bidResultOf(overloaded(BIDS_QUEUE_FULL, 1))).toBe('queue_full');
    expect(bidResultOf(badRequest('Bid must be at least $110'))).toBe('refused');
    expect(bidResultOf(forbidden())).toBe('refused');
    expect(bidResultOf(new AppError('internal', 'x'))).toBe('error');
    expect(bidResultOf(new Error('x'))).toBe('error');
  });

  it('counts each placed bid once by its result and passes the answer or the error through', async () => {
    const [accepted, busy] = [await counted('accepted'), await counted('lock_timeout')];
    await expect(countBid(Promise.resolve({ kind: 'bid' }))).resolves.toEqual({ kind: 'bid' });
    await expect(countBid(Promise.reject(overloaded(LISTING_BUSY)))).rejects.toThrow(LISTING_BUSY);
    expect(await counted('accepted')).toBe(accepted + 1);
    expect(await counted('lock_timeout')).toBe(busy + 1);
  });
});

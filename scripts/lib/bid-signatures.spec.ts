// @ts-expect-error plain ESM script without type declarations
import { compareSides, median, ownProcess } from './bid-signatures.mjs';

/** A storm as measureBusChecks records it, with only what compareSides reads. */
const storm = (round: number, checks: 'on' | 'off', acceptedPerSecond: number, systemUs: number, ownUs: number) => ({
  round,
  checks,
  phase: { acceptedPerSecond, p50: 1000 / acceptedPerSecond, p99: 2000 / acceptedPerSecond, accepted: new Array(acceptedPerSecond), serverErrors: 0 },
  cpu: [
    { label: 'gateway', perRequestUs: ownUs, core: 0.5 },
    { label: 'PostgreSQL', perRequestUs: systemUs - ownUs, core: 0.5 },
    { label: 'load generator', perRequestUs: 100, core: 0.1 },
  ],
  systemUs,
  ownUs,
  loadUs: 100,
  elsewhereCores: 0,
});

describe('bench:bids phase S figures', () => {
  it('takes the median, the mean of the middle two for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('compares the medians of each side, so one noisy storm does not decide the cost', () => {
    const runs = [
      storm(0, 'on', 90, 7000, 3000),
      storm(0, 'off', 100, 6000, 2000),
      // A storm the machine's other work slowed: the median leaves it out.
      storm(1, 'on', 40, 9000, 4000),
      storm(1, 'off', 100, 6000, 2000),
      storm(2, 'on', 95, 7000, 3000),
      storm(2, 'off', 40, 9000, 3000),
    ];
    const result = compareSides(runs);
    expect(result.on.acceptedPerSecond).toBe(90);
    expect(result.off.acceptedPerSecond).toBe(100);
    expect(result.cost).toBeCloseTo(0.1);
    expect(result.roundCosts.map((cost: number) => Number(cost.toFixed(2)))).toEqual([0.1, 0.6, -1.38]);
    expect(result.cpuAddedUs).toBe(1000);
    expect(result.ownAddedUs).toBe(1000);
    expect(result.on.byGroup.find((group: { label: string }) => group.label === 'gateway').perRequestUs).toBe(3000);
  });

  it('counts the gateway and the services as the system\'s own processes, not the shared servers', () => {
    expect(['gateway', 'bidding-service', 'notifications-service'].every(ownProcess)).toBe(true);
    expect(['NATS', 'Redis', 'PostgreSQL', 'load generator'].some(ownProcess)).toBe(false);
  });
});

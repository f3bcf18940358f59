import { Logger } from '@nestjs/common';
import { counter } from '../metrics/registry';

/**
 * What was not believed: a request a service refused, a reply a caller ignored, an event a consumer dead-lettered, an
 * account or session state in Redis that auth-service did not sign.
 */
export type RefusedKind = 'request' | 'reply' | 'event' | 'redis';

const refused = () =>
  counter({
    name: 'market_bus_refused_total',
    help: 'Messages on the bus not believed (D25): unsigned, expired, wrongly signed, or from a process contracts do not allow, by kind',
    labelNames: ['kind'],
  });

const logger = new Logger('Bus');
// One line a second at most: a flood of forged messages must not become a flood of log lines.
let lastLogged = 0;
let unlogged = 0;

/** Counts a message that was not believed and logs why (at most once a second, with how many went unlogged). */
export function refusedOnBus(kind: RefusedKind, subject: string, problem: string): void {
  refused().inc({ kind });
  const now = Date.now();
  if (now - lastLogged < 1000) {
    unlogged += 1;
    return;
  }
  const more = unlogged > 0 ? ` (and ${unlogged} more not logged)` : '';
  lastLogged = now;
  unlogged = 0;
  logger.warn(`Not believed: a ${kind} on ${subject.slice(0, 200)}: ${problem.slice(0, 200)}${more}`);
}

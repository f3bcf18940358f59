import { connect } from 'nats';
import { EVENT_FLOWS, EVENT_NAMES } from '@market/contracts';
import { startStack, type Stack } from '../support/start-stack';

describe('event flows', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'notifications', 'admin', 'listings', 'billing', 'bidding'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('are what contracts declare: every event has a consumer, and every service consumes exactly the events named for it', async () => {
    for (const name of EVENT_NAMES) expect([name, EVENT_FLOWS[name].consumedBy.length > 0]).toEqual([name, true]);
    const declared = EVENT_NAMES.flatMap((name) =>
      EVENT_FLOWS[name].consumedBy.filter((party) => party !== 'gateway').map((service) => `${service}-${name.replace(/\./g, '_')}`),
    ).sort();
    const nc = await connect({ servers: stack.env.NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      const durables = (await jsm.consumers.list(stack.env.EVENTS_STREAM).next()).map((consumer) => consumer.name).sort();
      expect(durables).toEqual(declared);
    } finally {
      await nc.close();
    }
  });
});

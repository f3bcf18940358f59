import { randomBytes } from 'node:crypto';
import { connect, StringCodec, type NatsConnection } from 'nats';
import { natsTarget } from './nats-target';
import { coalesceWrites } from './write-coalescing';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const codec = StringCodec();

/** One socket write per turn of the event loop on a NATS connection (ADR 0062), every message still delivered in order. */
describe('coalesced NATS writes', () => {
  let subscriber: NatsConnection;
  const connections: NatsConnection[] = [];
  const open = async () => {
    const nc = await connect(natsTarget(NATS_URL));
    connections.push(nc);
    return nc;
  };
  // Counts the socket writes of a connection (nats.js's transport), the thing the coalescing exists to reduce.
  const countWrites = (nc: NatsConnection) => {
    const transport = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol.transport;
    const send = transport.send.bind(transport);
    const counted = { writes: 0 };
    transport.send = (frame: Uint8Array) => {
      counted.writes += 1;
      send(frame);
    };
    return counted;
  };
  // Publishes `count` messages, each from a timer callback of its own, all due in the same turn of the loop.
  const publishFromSeparateCallbacks = (nc: NatsConnection, subject: string, count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => new Promise<void>((resolve) => setTimeout(() => (nc.publish(subject, codec.encode(String(i))), resolve()), 0))));

  beforeAll(async () => {
    subscriber = await open();
  });
  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
  });

  it.each([
    ['coalesced', true],
    ['as nats.js sends them', false],
  ])('%s: twenty messages from twenty callbacks all arrive in order', async (_label, coalesced) => {
    const subject = `coalescing.${randomBytes(4).toString('hex')}`;
    const received: string[] = [];
    const all = new Promise<void>((resolve) => {
      subscriber.subscribe(subject, {
        callback: (_error, msg) => {
          received.push(codec.decode(msg.data));
          if (received.length === 20) resolve();
        },
      });
    });
    await subscriber.flush();
    const publisher = await open();
    if (coalesced) coalesceWrites(publisher);
    const counted = countWrites(publisher);

    await publishFromSeparateCallbacks(publisher, subject, 20);
    await publisher.flush();
    await all;

    expect(received).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    // The twenty publishes and the flush's PING: one write or two when coalesced, one per callback otherwise.
    if (coalesced) expect(counted.writes).toBeLessThanOrEqual(2);
    else expect(counted.writes).toBeGreaterThanOrEqual(20);
  });

  it('sends what passes nats.js’s pending limit at its microtask, without waiting for the turn to end', async () => {
    const publisher = coalesceWrites(await open());
    const counted = countWrites(publisher);
    const limit = (publisher as unknown as { protocol: { pendingLimit: number } }).protocol.pendingLimit;
    publisher.publish(`coalescing.${randomBytes(4).toString('hex')}`, new Uint8Array(limit + 1));
    // nats.js queued its flush as a microtask before this one.
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(counted.writes).toBe(1);
    await publisher.flush();
  });

  it('sends what the turn wrote before the connection closes', async () => {
    const subject = `coalescing.${randomBytes(4).toString('hex')}`;
    const arrived = new Promise<string>((resolve) => subscriber.subscribe(subject, { max: 1, callback: (_error, msg) => resolve(codec.decode(msg.data)) }));
    await subscriber.flush();
    const publisher = coalesceWrites(await connect(natsTarget(NATS_URL)));
    publisher.publish(subject, codec.encode('last words'));
    await publisher.close();
    expect(await arrived).toBe('last words');
  });
});

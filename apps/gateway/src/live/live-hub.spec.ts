import { EventEmitter } from 'node:events';
import type { LiveMessage } from '@market/contracts';
import { LiveHub, type LiveSocket } from './live-hub';

/** A socket that records what the hub does to it. */
class FakeSocket extends EventEmitter implements LiveSocket {
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  pings = 0;
  terminated = false;
  /** Whether close() completes the closing handshake (a peer that answers). */
  constructor(private readonly answersClose = true) {
    super();
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code ?? null;
    this.readyState = 2;
    if (this.answersClose) this.finish();
  }
  terminate() {
    this.terminated = true;
    this.finish();
  }
  ping() {
    this.pings += 1;
  }
  finish() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.emit('close');
  }
}

const sold = (listingId: string): LiveMessage => ({ type: 'listing_sold', data: { listing_id: listingId, amount: 10, sold_at: 't' } });

describe('LiveHub', () => {
  it("sends a listing's frames to that listing's open sockets only, and forgets closed ones", () => {
    const hub = new LiveHub();
    const [a1, a2, b] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    hub.add('a', a1);
    hub.add('a', a2);
    hub.add('b', b);
    expect(hub.publish('a', [sold('a')])).toBe(2);
    expect(a1.sent).toEqual([JSON.stringify(sold('a'))]);
    expect(a2.sent).toEqual(a1.sent);
    expect(b.sent).toEqual([]);
    a2.finish();
    expect(hub.size).toBe(2);
    expect(hub.publish('a', [sold('a')])).toBe(1);
    expect(hub.publish('nobody', [sold('nobody')])).toBe(0);
  });

  it('closes a slow consumer with 1013 instead of queueing more for it', () => {
    const hub = new LiveHub({ maxSockets: 10, maxSocketsPerAddress: 100, maxBufferedBytes: 1000 });
    const [slow, fine] = [new FakeSocket(), new FakeSocket()];
    hub.add('a', slow);
    hub.add('a', fine);
    slow.bufferedAmount = 1001;
    fine.bufferedAmount = 1000;
    expect(hub.publish('a', [sold('a')])).toBe(1);
    expect(slow.sent).toEqual([]);
    expect(slow.closedWith).toBe(1013);
    expect(fine.sent).toHaveLength(1);
    expect(hub.size).toBe(1);
  });

  it('has room for maxSocketsPerAddress sockets from one client address', () => {
    const hub = new LiveHub({ maxSockets: 10, maxSocketsPerAddress: 2, maxBufferedBytes: 1000 });
    hub.add('a', new FakeSocket(), '10.0.0.1');
    const second = new FakeSocket();
    hub.add('b', second, '10.0.0.1');
    expect(hub.roomFor('10.0.0.1')).toBe('address');
    expect(hub.roomFor('10.0.0.2')).toBe('yes');
    second.finish();
    expect(hub.roomFor('10.0.0.1')).toBe('yes');
  });

  it('names the client\'s own share first when both it and the gateway are full', () => {
    const hub = new LiveHub({ maxSockets: 2, maxSocketsPerAddress: 2, maxBufferedBytes: 1000 });
    hub.add('a', new FakeSocket(), '10.0.0.1');
    hub.add('b', new FakeSocket(), '10.0.0.1');
    expect(hub.roomFor('10.0.0.1')).toBe('address');
    expect(hub.roomFor('10.0.0.2')).toBe('gateway');
  });

  it('has room for maxSockets sockets', () => {
    const hub = new LiveHub({ maxSockets: 2, maxSocketsPerAddress: 100, maxBufferedBytes: 1000 });
    hub.add('a', new FakeSocket());
    expect(hub.roomFor()).toBe('yes');
    const second = new FakeSocket();
    hub.add('b', second);
    expect(hub.roomFor()).toBe('gateway');
    second.finish();
    expect(hub.roomFor()).toBe('yes');
  });

  it('pings every socket and drops those that did not answer the previous ping', () => {
    const hub = new LiveHub();
    const [answers, silent] = [new FakeSocket(), new FakeSocket()];
    hub.add('a', answers);
    hub.add('a', silent);
    hub.sweep();
    expect([answers.pings, silent.pings]).toEqual([1, 1]);
    answers.emit('pong');
    hub.sweep();
    expect(silent.terminated).toBe(true);
    expect(answers.terminated).toBe(false);
    expect(answers.pings).toBe(2);
    expect(hub.size).toBe(1);
  });

  it('closes everything with the given code on shutdown and cuts peers that do not answer in time', async () => {
    const hub = new LiveHub();
    const [polite, deaf] = [new FakeSocket(), new FakeSocket(false)];
    hub.add('a', polite);
    hub.add('b', deaf);
    const started = Date.now();
    await hub.closeAll(1001, 'bye', 50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect([polite.closedWith, deaf.closedWith]).toEqual([1001, 1001]);
    expect(polite.terminated).toBe(false);
    expect(deaf.terminated).toBe(true);
    expect(hub.size).toBe(0);
    expect(hub.publish('a', [sold('a')])).toBe(0);
  });
});

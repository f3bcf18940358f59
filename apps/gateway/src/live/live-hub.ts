import type { LiveMessage } from '@market/contracts';
import { liveFramesSent, liveSlowConsumersDropped } from './live.metrics';

/** The part of a `ws` WebSocket the hub uses (tests pass fakes). */
export interface LiveSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'pong' | 'close', listener: () => void): unknown;
}

const OPEN = 1;

/** Close codes the feed uses (RFC 6455 section 7.4). */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_TRY_AGAIN_LATER = 1013;

export interface LiveHubLimits {
  /** Sockets this gateway holds at most; handshakes beyond are refused with 503 (the server's capacity). */
  maxSockets: number;
  /** Sockets one client address may hold, so one client cannot take every slot; beyond, a 429 (ADR 0064). */
  maxSocketsPerAddress: number;
  /** A socket with more than this many bytes still queued is a slow consumer: it is closed, not fed. */
  maxBufferedBytes: number;
}

// Frames are small hints (clients reload on them), so a reader 64 KB behind is not keeping up.
export const DEFAULT_LIVE_LIMITS: LiveHubLimits = { maxSockets: 10_000, maxSocketsPerAddress: 100, maxBufferedBytes: 64 * 1024 };

/**
 * This gateway's live sockets, grouped by listing. Each frame is serialized once per event and sent to that listing's
 * sockets only. Nothing is shared with other gateways: each one hears every event and feeds its own sockets.
 */
export class LiveHub {
  private readonly byListing = new Map<string, Set<LiveSocket>>();
  // Heartbeat state: false once pinged, true again when the pong comes back.
  private readonly alive = new Map<LiveSocket, boolean>();
  private readonly addressOf = new Map<LiveSocket, string>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: LiveHubLimits = DEFAULT_LIVE_LIMITS) {}

  /** How many sockets are open here. */
  get size(): number {
    return this.alive.size;
  }

  /** Whether one more socket may be accepted from `address`: 'address' when that client holds its share, 'gateway' when this gateway is full. */
  roomFor(address = ''): 'yes' | 'address' | 'gateway' {
    if ((this.perAddress.get(address) ?? 0) >= this.limits.maxSocketsPerAddress) return 'address';
    return this.alive.size < this.limits.maxSockets ? 'yes' : 'gateway';
  }

  /** Sockets one client address may hold at once. */
  get maxSocketsPerAddress(): number {
    return this.limits.maxSocketsPerAddress;
  }

  /** Starts feeding a socket the events of one listing; it leaves by itself when it closes. */
  add(listingId: string, socket: LiveSocket, address = ''): void {
    this.addressOf.set(socket, address);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    let sockets = this.byListing.get(listingId);
    if (!sockets) this.byListing.set(listingId, (sockets = new Set()));
    sockets.add(socket);
    this.alive.set(socket, true);
    socket.on('pong', () => {
      if (this.alive.has(socket)) this.alive.set(socket, true);
    });
    socket.on('close', () => this.remove(listingId, socket));
  }

  /** Sends frames to every open socket of a listing; returns how many sockets got them. */
  publish(listingId: string, messages: LiveMessage[]): number {
    const sockets = this.byListing.get(listingId);
    if (!sockets || messages.length === 0) return 0;
    const frames = messages.map((message) => JSON.stringify(message));
    let sent = 0;
    for (const socket of [...sockets]) {
      if (socket.readyState !== OPEN) continue;
      if (socket.bufferedAmount > this.limits.maxBufferedBytes) {
        // A reader that cannot keep up would hold ever more memory here; it reconnects and reloads instead.
        this.remove(listingId, socket);
        socket.close(CLOSE_TRY_AGAIN_LATER, 'Slow consumer');
        liveSlowConsumersDropped().inc();
        continue;
      }
      for (const frame of frames) socket.send(frame);
      sent += 1;
    }
    if (sent > 0) liveFramesSent().inc(sent * frames.length);
    return sent;
  }

  /** One heartbeat round: drops sockets that did not answer the last ping, pings the rest. */
  sweep(): void {
    for (const [listingId, sockets] of this.byListing) {
      for (const socket of [...sockets]) {
        if (!this.alive.get(socket)) {
          this.remove(listingId, socket);
          socket.terminate();
          continue;
        }
        this.alive.set(socket, false);
        if (socket.readyState === OPEN) socket.ping();
      }
    }
  }

  /** Closes every socket with `code`; resolves when all have closed or `graceMs` has passed, then cuts the rest. */
  async closeAll(code: number, reason: string, graceMs: number): Promise<void> {
    const sockets = [...this.alive.keys()];
    this.byListing.clear();
    this.alive.clear();
    this.addressOf.clear();
    this.perAddress.clear();
    const closed = sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === 3) return resolve();
          socket.on('close', resolve);
          socket.close(code, reason);
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(closed), grace]);
    clearTimeout(timer);
    // A peer that does not answer the close frame must not keep the HTTP server (and so app.close()) open.
    for (const socket of sockets) if (socket.readyState !== 3) socket.terminate();
  }

  private remove(listingId: string, socket: LiveSocket): void {
    if (!this.alive.delete(socket)) return;
    const address = this.addressOf.get(socket) ?? '';
    this.addressOf.delete(socket);
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
    const sockets = this.byListing.get(listingId);
    if (!sockets) return;
    sockets.delete(socket);
    if (sockets.size === 0) this.byListing.delete(listingId);
  }
}

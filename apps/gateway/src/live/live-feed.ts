import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Msg, MsgHdrs, NatsConnection, NatsError, Subscription } from 'nats';
import { WebSocketServer } from 'ws';
import { mayConsume, type EventEnvelope } from '@market/contracts';
import { BusIdentity, eventProblem, eventSubject, rateLimitFields, refusedOnBus } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { GATEWAY_NATS } from '../gateway.tokens';
import { clientAddress } from '../http/trust-proxy';
import { CLOSE_GOING_AWAY, DEFAULT_LIVE_LIMITS, LiveHub } from './live-hub';
import { liveDeliveryDelay, watchLiveSockets } from './live.metrics';
import { matchLivePath, originAllowed, rejectUpgrade, serveWithoutUpgrade, wantsWebSocket, type OriginPolicy } from './live-handshake';
import { LIVE_SOURCE_EVENTS, liveMessagesFor } from './live-messages';
import { sendInSpan } from './live-tracing';
import { batchLiveEvents, type LiveEvent } from './live-batch';

const PING_INTERVAL_MS = 30_000;
// Sockets last as long as a page stays open, so a refused client is told to wait a while, not a moment.
const LIVE_RETRY_AFTER_SECONDS = 30;
// Clients have nothing to say on this feed; a larger frame ends the connection (ws closes it with 1009).
const MAX_INCOMING_BYTES = 1024;
// How long shutdown waits for browsers to answer the 1001 close before cutting the connections.
const CLOSE_GRACE_MS = 2000;
// A relay that republishes after a crash sends an event twice on core NATS (JetStream only dedups what it stores).
const RECENT_EVENT_IDS = 1024;
// The most events one batch sends; more that arrived together wait for the next turn of the event loop.
const MAX_LIVE_BATCH = 256;

/**
 * The live listing feed (D21, ADR 0015): websockets on /ws/listings/{id}, fed from bus events. Every gateway replica
 * subscribes to the events itself (a plain subscription, not a queue group), so each hears every event and feeds only
 * the sockets it holds; nothing about sockets is shared between replicas.
 */
@Injectable()
export class LiveFeed implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LiveFeed');
  private readonly hub: LiveHub;
  private readonly unwatch: () => void;
  private readonly wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: MAX_INCOMING_BYTES, perMessageDeflate: false });
  private readonly policy: OriginPolicy;
  private readonly recent = new Set<string>();
  // Events heard since the last batch went out (ADR 0057), and whether one is due.
  private pending: LiveEvent<MsgHdrs | undefined>[] = [];
  private flushing: NodeJS.Immediate | null = null;
  private subscriptions: Subscription[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private server: Server | null = null;
  private closing = false;
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head);

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
    private readonly adapterHost: HttpAdapterHost,
    private readonly bus: BusIdentity,
  ) {
    const allowed = new Set(config.WS_ALLOWED_ORIGINS);
    if (config.PUBLIC_URL) allowed.add(new URL(config.PUBLIC_URL).origin);
    this.policy = { proxyHops: config.TRUST_PROXY, allowed };
    this.hub = new LiveHub({ ...DEFAULT_LIVE_LIMITS, maxSocketsPerAddress: config.WS_MAX_SOCKETS_PER_ADDRESS });
    this.unwatch = watchLiveSockets(this.hub);
  }

  onApplicationBootstrap() {
    // Nest creates the HTTP server before bootstrap hooks run and listens after them, so no handshake is missed.
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.server.on('upgrade', this.onUpgrade);
    const undeclared = LIVE_SOURCE_EVENTS.filter((name) => !mayConsume('gateway', name));
    if (undeclared.length > 0) throw new Error(`The live feed reads ${undeclared.join(', ')}, which EVENT_FLOWS does not list the gateway as consuming`);
    this.subscriptions = LIVE_SOURCE_EVENTS.map((name) =>
      this.nc.subscribe(eventSubject(this.config.EVENTS_PREFIX, name), { callback: (error, msg) => this.relay(error, msg) }),
    );
    this.heartbeat = setInterval(() => this.hub.sweep(), PING_INTERVAL_MS);
    this.heartbeat.unref();
  }

  // Before Nest closes the HTTP server: it waits for every connection, and open websockets would keep it waiting.
  async beforeApplicationShutdown() {
    this.closing = true;
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
    if (this.flushing) clearImmediate(this.flushing);
    this.flush();
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.hub.closeAll(CLOSE_GOING_AWAY, 'Server shutting down', CLOSE_GRACE_MS);
    this.unwatch();
  }

  // Nothing a message holds may throw out of here: an exception in a subscription callback ends the reading of the
  // gateway's one NATS connection.
  private relay(error: NatsError | null, msg: Msg): void {
    try {
      this.take(error, msg);
    } catch (failure) {
      this.logger.warn(`Dropped an event on ${msg?.subject ?? 'the live feed'}: ${(failure as Error).message}`);
    }
  }

  private take(error: NatsError | null, msg: Msg): void {
    if (error) {
      this.logger.warn(`Live feed subscription failed: ${error.message}`);
      return;
    }
    let envelope: unknown;
    try {
      envelope = JSON.parse(msg.string());
    } catch {
      envelope = null;
    }
    const live = liveMessagesFor(envelope);
    if (!live) {
      this.logger.warn(`Dropped a malformed event on ${msg.subject}`);
      return;
    }
    // Viewers see only what bidding-service signed (D25): a price published by anyone else reaches no browser.
    const forged = eventProblem(this.bus.keys, envelope as EventEnvelope, msg.headers);
    if (forged) {
      refusedOnBus('event', msg.subject, forged);
      return;
    }
    // Every event NATS hands over in one read is sent as one batch, after them (ADR 0057): each listing's sockets
    // are walked once per batch, and nothing waits longer than the rest of this turn of the event loop.
    this.pending.push({ ...live, headers: msg.headers, occurredAt: Date.parse((envelope as EventEnvelope).occurred_at) });
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = null;
    const batch = this.pending.splice(0, MAX_LIVE_BATCH);
    if (this.pending.length > 0) this.flushing = setImmediate(() => this.flush());
    for (const delivery of batchLiveEvents(batch, (eventId) => this.seen(eventId))) {
      sendInSpan(delivery.headers, delivery.listingId, () => this.hub.publish(delivery.listingId, delivery.messages));
    }
    // The live feed's delay as viewers feel it (docs/slo.md): from the event to its frames leaving, relay included.
    const sentAt = Date.now();
    for (const event of batch) {
      if (event.occurredAt !== undefined && Number.isFinite(event.occurredAt)) liveDeliveryDelay().observe(Math.max(0, sentAt - event.occurredAt) / 1000);
    }
  }

  // True for an id relayed before; otherwise remembers it among the last RECENT_EVENT_IDS.
  private seen(eventId: string): boolean {
    if (this.recent.has(eventId)) return true;
    this.recent.add(eventId);
    // A Set iterates in insertion order: the first id is the oldest.
    if (this.recent.size > RECENT_EVENT_IDS) this.recent.delete(this.recent.values().next().value as string);
    return false;
  }

  /** Retry-After and the RateLimit headers for a client holding its share of sockets (ADR 0064). */
  private ownShareHeaders(): Record<string, string> {
    const fields = rateLimitFields([
      { policy: 'live-sockets', quota: this.hub.maxSocketsPerAddress, unit: 'concurrent-requests', remaining: 0, reset_seconds: LIVE_RETRY_AFTER_SECONDS },
    ]);
    return { 'Retry-After': String(LIVE_RETRY_AFTER_SECONDS), ...fields };
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const route = matchLivePath(request.url);
    // Leave other paths to another upgrade handler on this server if there is one (none today).
    if (route.kind === 'other' && this.server && this.server.listeners('upgrade').length > 1) return;
    // A client that resets mid-handshake must not become an unhandled 'error' event.
    socket.on('error', () => socket.destroy());
    if (!wantsWebSocket(request) && this.server) return serveWithoutUpgrade(this.server, request, socket);
    if (route.kind === 'other') return rejectUpgrade(socket, 'not_found', 'Not found');
    if (this.closing) return rejectUpgrade(socket, 'unavailable', 'The server is shutting down');
    if (route.kind === 'bad-id') return rejectUpgrade(socket, 'bad_request', 'Not a valid listing id');
    if (!originAllowed(request, this.policy)) return rejectUpgrade(socket, 'forbidden', 'Origin not allowed');
    const address = clientAddress(request, this.policy.proxyHops);
    const room = this.hub.roomFor(address);
    if (room === 'address') return rejectUpgrade(socket, 'rate_limited', 'Too many live connections from this address; close some, then try again', this.ownShareHeaders());
    if (room === 'gateway') return rejectUpgrade(socket, 'overloaded', 'Too many live connections, try again later', { 'Retry-After': String(LIVE_RETRY_AFTER_SECONDS) });
    // handleUpgrade answers malformed handshakes itself (400/405) and otherwise calls back synchronously, so the
    // room check above cannot be overtaken by a concurrent handshake.
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      // Incoming frames are ignored; protocol errors (an oversized frame among them) close the socket, then 'close' fires.
      ws.on('error', () => undefined);
      this.hub.add(route.listingId, ws, address);
    });
  }
}

import { STATUS_CODES, ServerResponse, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ERROR_STATUS, PROBLEM_MEDIA_TYPE, problemOf, UuidSchema, type ErrorCode } from '@market/contracts';

const LIVE_PATH = /^\/ws\/listings\/([^/]*)$/;

/** Which live feed an upgrade request's URL asks for: a listing, a malformed id, or not the live feed at all. */
export function matchLivePath(url: string | undefined): { kind: 'listing'; listingId: string } | { kind: 'bad-id' } | { kind: 'other' } {
  const path = (url ?? '').split('?', 1)[0];
  const match = LIVE_PATH.exec(path);
  if (!match) return { kind: 'other' };
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return { kind: 'bad-id' };
  }
  // Events carry PostgreSQL's lower-case ids; an upper-case id in the URL must find the same sockets.
  return UuidSchema.safeParse(id).success ? { kind: 'listing', listingId: id.toLowerCase() } : { kind: 'bad-id' };
}

/** The origin (`scheme://host[:port]`) of an http(s) URL, or null when it is not one. */
export function originOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  return url.origin;
}

/** Parses WS_ALLOWED_ORIGINS (comma-separated origins); throws naming the first entry that is not an http(s) origin. */
export function parseOriginList(value: string): string[] {
  const origins: string[] = [];
  for (const entry of value.split(',').map((part) => part.trim())) {
    if (!entry) continue;
    const origin = originOf(entry);
    if (!origin) throw new Error(`"${entry}" is not an origin like https://market.example.com`);
    origins.push(origin);
  }
  return origins;
}

export interface OriginPolicy {
  /** TRUST_PROXY's hops: with any, X-Forwarded-Proto is believed, as Express does for the gateway's other requests. */
  proxyHops: number;
  /** PUBLIC_URL's origin and WS_ALLOWED_ORIGINS. */
  allowed: ReadonlySet<string>;
}

/**
 * Whether a handshake may proceed. Browsers always send Origin, so a page on another site (cross-site websocket
 * hijacking) is refused unless its origin is the gateway's own, PUBLIC_URL's or listed; clients that send no Origin
 * are not browsers and are let in (the feed is public data).
 */
export function originAllowed(request: { headers: IncomingHttpHeaders; socket: object }, policy: OriginPolicy): boolean {
  const header = request.headers.origin ?? request.headers['sec-websocket-origin'];
  if (header === undefined) return true;
  const origin = originOf(Array.isArray(header) ? header[0] : header);
  if (!origin) return false;
  if (policy.allowed.has(origin)) return true;
  const host = request.headers.host;
  return host !== undefined && originOf(`${requestProtocol(request, policy.proxyHops)}://${host}`) === origin;
}

function requestProtocol(request: { headers: IncomingHttpHeaders; socket: object }, proxyHops: number): 'http' | 'https' {
  if (proxyHops > 0) {
    const forwarded = request.headers['x-forwarded-proto'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',', 1)[0].trim().toLowerCase();
    if (first === 'http' || first === 'https') return first;
  }
  return (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
}

/**
 * Refuses an upgrade with a plain HTTP answer, the API's problem body for `code` (ADR 0079; `headers`, e.g.
 * Retry-After) and closes the connection.
 */
export function rejectUpgrade(socket: Duplex, code: ErrorCode, detail: string, headers: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(problemOf({ code, status, detail }));
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      `Connection: close\r\nContent-Type: ${PROBLEM_MEDIA_TYPE}\r\n` +
      Object.entries(headers)
        // Written by hand into the raw answer: only printable ASCII, so no value can end the header block.
        .filter(([name, value]) => /^[\x21-\x7e]+$/.test(name) && /^[\x20-\x7e]*$/.test(value))
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Whether an upgrade request asks for a websocket (rather than, say, curl's h2c offer). */
export function wantsWebSocket(request: { headers: IncomingHttpHeaders }): boolean {
  return (request.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/**
 * Answers a non-websocket upgrade request (`curl --http2` offers h2c on every plain-HTTP request) as ordinary
 * HTTP/1.1. Node hands every request with an Upgrade header to 'upgrade' listeners once one exists, bypassing the app;
 * this gives the request back to it. Its body cannot be recovered once Node has stopped parsing, so a request with one
 * is refused (400) rather than run without it.
 */
export function serveWithoutUpgrade(server: Server, request: IncomingMessage, socket: Duplex): void {
  const length = Number(request.headers['content-length'] ?? 0);
  if (request.headers['transfer-encoding'] !== undefined || length !== 0) {
    rejectUpgrade(socket, 'bad_request', 'Send this request without an Upgrade header');
    return;
  }
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket as Socket);
  response.on('finish', () => {
    response.detachSocket(socket as Socket);
    socket.end();
  });
  server.emit('request', request, response);
}

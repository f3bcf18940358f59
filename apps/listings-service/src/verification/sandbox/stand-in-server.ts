import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How a stand-in account or property answers (ADR 0084's failure cases): as the provider would, refusing the key or
 * token, refusing for a missing permission, slower than any caller's timeout, or broken (a 500 or JSON cut short).
 */
export type StandInBehaviour = 'ok' | 'revoked' | 'no_permission' | 'slow' | 'broken';

/** Where a stand-in listens: what an SDK's host/port/protocol options take. */
export interface StandInAddress {
  host: string;
  port: number;
  protocol: 'http';
}

/** One answer of a stand-in; `delayMs` holds it back (the 'slow' behaviour). */
export interface StandInAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
  delayMs?: number;
}

/** One request as a stand-in's handler reads it. */
export interface StandInCall {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): StandInAnswer {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** What 'broken' answers: a 500, or (`malformed`) a 200 whose JSON is cut short, as a failing proxy might send. */
export function broken(kind: 'status_500' | 'malformed_json', error: unknown): StandInAnswer {
  if (kind === 'malformed_json') return { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"object": "list", "data": [{"id": ' };
  return json(500, error);
}

/**
 * A node:http server on 127.0.0.1 and a free port for a stand-in. A held-back answer's timer is unref'd and cleared
 * when its client gives up or the stand-in stops, so a 'slow' stand-in never keeps Jest's process alive.
 */
export class StandInServer {
  private server: Server | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly handle: (call: StandInCall) => StandInAnswer | Promise<StandInAnswer>) {}

  /** Starts listening; answers the address. */
  async start(): Promise<StandInAddress> {
    if (this.server) throw new Error('The stand-in is already started');
    const server = createServer((req, res) => void this.serve(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return { host: '127.0.0.1', port: (server.address() as AddressInfo).port, protocol: 'http' };
  }

  /** Drops held-back answers and open connections, then closes. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let answer: StandInAnswer;
    try {
      answer = await this.handle({ method: req.method ?? 'GET', url: new URL(req.url ?? '/', 'http://stand-in'), headers: req.headers, body: Buffer.concat(chunks).toString() });
    } catch (error) {
      answer = json(500, { error: { message: `stand-in failure: ${(error as Error).message}` } });
    }
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body);
    };
    if (!answer.delayMs) return send();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      send();
    }, answer.delayMs);
    timer.unref();
    this.timers.add(timer);
    res.once('close', () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    });
  }
}

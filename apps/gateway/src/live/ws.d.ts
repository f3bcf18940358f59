// The `ws` package (8.x, pinned in package.json) ships no types and @types/ws is not installed: this declares the
// part of its API the live feed and its tests use, as documented in ws's README. Import by name only
// (`import { WebSocket, WebSocketServer } from 'ws'`): ws exports both classes as properties of its main export.
declare module 'ws' {
  import type { EventEmitter } from 'node:events';
  import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
  import type { Duplex } from 'node:stream';

  export interface ClientOptions {
    origin?: string;
    headers?: OutgoingHttpHeaders;
    autoPong?: boolean;
    handshakeTimeout?: number;
    maxPayload?: number;
  }

  export interface ServerOptions {
    noServer?: boolean;
    clientTracking?: boolean;
    maxPayload?: number;
    perMessageDeflate?: boolean;
  }

  export class WebSocket extends EventEmitter {
    static readonly CONNECTING: 0;
    static readonly OPEN: 1;
    static readonly CLOSING: 2;
    static readonly CLOSED: 3;
    constructor(address: string, options?: ClientOptions);
    readonly readyState: 0 | 1 | 2 | 3;
    /** Bytes queued but not yet handed to the network. */
    readonly bufferedAmount: number;
    send(data: string | Buffer, callback?: (error?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    ping(data?: string | Buffer, mask?: boolean, callback?: (error?: Error) => void): void;
    on(event: 'open', listener: () => void): this;
    on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): this;
    on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'ping' | 'pong', listener: (data: Buffer) => void): this;
    on(event: 'unexpected-response', listener: (request: ClientRequest, response: IncomingMessage) => void): this;
    once(event: 'open', listener: () => void): this;
    once(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    once(event: 'error', listener: (error: Error) => void): this;
    once(event: 'unexpected-response', listener: (request: ClientRequest, response: IncomingMessage) => void): this;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: ServerOptions);
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, callback: (socket: WebSocket, request: IncomingMessage) => void): void;
    close(callback?: (error?: Error) => void): void;
  }
}

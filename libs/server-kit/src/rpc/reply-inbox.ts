import { createInbox, ErrorCode, NatsError, type Msg, type NatsConnection, type Subscription } from 'nats';

interface Pending {
  resolve: (msg: Msg) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  accept: ((msg: Msg) => boolean) | null;
}

/**
 * Requests over one reply subscription (`<inbox>.<token>`) for every request a client sends (ADR 0057). nats.js's
 * own `request()` does the same but builds two or three Error objects per request for stack traces and
 * cancellation; on the gateway's hot path they cost about as much as the request's socket write.
 */
export class ReplyInbox {
  private readonly pending = new Map<string, Pending>();
  private readonly prefix: string;
  private readonly subscription: Subscription;
  private sequence = 0;

  constructor(
    private readonly nc: NatsConnection,
    inboxPrefix?: string,
  ) {
    this.prefix = `${createInbox(inboxPrefix)}.`;
    this.subscription = nc.subscribe(`${this.prefix}*`, { callback: (error, msg) => (error ? this.failAll(error) : this.deliver(msg)) });
  }

  /**
   * Publishes `data` (or what it makes for the reply subject) to `subject`, and resolves with its first reply that
   * `accept` takes (D25: one not sealed by the subject's owner for this request is ignored and the request waits on);
   * no such reply within `timeoutMs` is a Timeout error.
   */
  request(subject: string, data: Uint8Array | ((reply: string) => Uint8Array), timeoutMs: number, options: { accept?: (msg: Msg) => boolean } = {}): Promise<Msg> {
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    const token = this.sequence.toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new NatsError('timeout', ErrorCode.Timeout));
      }, timeoutMs);
      this.pending.set(token, { resolve, reject, timer, accept: options.accept ?? null });
      try {
        const reply = `${this.prefix}${token}`;
        this.nc.publish(subject, typeof data === 'function' ? data(reply) : data, { reply });
      } catch (error) {
        this.settle(token)?.reject(error as Error);
      }
    });
  }

  /** Stops listening; requests still waiting fail. */
  close(): void {
    this.subscription.unsubscribe();
    this.failAll(new NatsError('closed', ErrorCode.ConnectionClosed));
  }

  private deliver(msg: Msg): void {
    const token = msg.subject.slice(this.prefix.length);
    const found = this.pending.get(token);
    if (!found) return;
    // An empty 503 status message is the server saying nobody subscribes to the subject: it carries nothing to believe.
    const noResponders = msg.data.length === 0 && msg.headers?.code === 503;
    if (!noResponders && found.accept && !found.accept(msg)) return;
    const waiting = this.settle(token);
    if (!waiting) return;
    if (noResponders) waiting.reject(new NatsError('503', ErrorCode.NoResponders));
    else waiting.resolve(msg);
  }

  private settle(token: string): Pending | undefined {
    const waiting = this.pending.get(token);
    if (!waiting) return undefined;
    this.pending.delete(token);
    clearTimeout(waiting.timer);
    return waiting;
  }

  private failAll(error: Error): void {
    for (const token of [...this.pending.keys()]) this.settle(token)?.reject(error);
  }
}

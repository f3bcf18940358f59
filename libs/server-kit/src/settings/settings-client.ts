import { Logger } from '@nestjs/common';
import type { NatsConnection, Subscription } from 'nats';
import { DEFAULT_SETTINGS, RPC, SETTINGS_CHANGED_SUBJECT, type PlatformSettings } from '@market/contracts';
import { RpcClient } from '../rpc/rpc-client';

const CACHE_MS = 15_000;

/** Reads platform settings from the admin service, cached briefly and dropped as soon as a change is announced. */
export class SettingsClient {
  private readonly logger = new Logger('SettingsClient');
  private cached: { value: PlatformSettings; at: number } | null = null;
  private lastKnown: PlatformSettings | null = null;
  private subscription: Subscription | null = null;
  // Counts change notices: an answer to a question asked before the latest notice may predate the change.
  private changes = 0;

  constructor(
    private readonly rpc: RpcClient,
    private readonly nc: NatsConnection,
    private readonly subjectPrefix: string,
  ) {}

  async start(): Promise<void> {
    await this.rpc.connect();
    this.subscription = this.nc.subscribe(`${this.subjectPrefix}${SETTINGS_CHANGED_SUBJECT}`, {
      callback: () => {
        this.changes += 1;
        this.cached = null;
      },
    });
  }

  async stop(): Promise<void> {
    this.subscription?.unsubscribe();
    await this.rpc.close();
  }

  /**
   * The current settings; when the admin service cannot answer, the last known ones, else the defaults, or with
   * `requireKnown` an error (for callers that must not act on defaults, like the mailer).
   */
  async get(options: { requireKnown?: boolean } = {}): Promise<PlatformSettings> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.value;
    const asked = this.changes;
    try {
      const value = await this.rpc.call(RPC.admin.effectiveSettings, {}, null);
      // Kept only if no change was announced meanwhile; otherwise the next call asks again.
      if (asked === this.changes) this.cached = { value, at: Date.now() };
      this.lastKnown = value;
      return value;
    } catch (error) {
      if (options.requireKnown && !this.lastKnown) throw new Error(`Settings unavailable and none known yet: ${(error as Error).message}`);
      this.logger.warn(`Settings unavailable (${(error as Error).message}); using ${this.lastKnown ? 'the last known' : 'default'} settings`);
      return this.lastKnown ?? DEFAULT_SETTINGS;
    }
  }
}

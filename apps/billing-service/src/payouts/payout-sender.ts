import { Inject, Injectable, Logger } from '@nestjs/common';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider, type ProviderTransfer } from '../payments/payment-provider';
import { PaymentIntentsRepository } from '../payments/payment-intents.repository';
import { PayoutAccountsRepository, type PayoutAccountRecord } from './payout-accounts.repository';
import { refreshAccount } from './payout-account-refresh';
import { PayoutSendsRepository } from './payout-sends.repository';
import { RecordPayoutSends } from './record-payout-sends';
import type { PayoutRecord } from './payouts.repository';

/** What sending a payout did: paid, waiting for the seller's account, or failed (tried again later, the money held). */
export type SendResult = 'paid' | 'waiting' | 'failed';

/** Payouts whose transfers are recorded per transaction (sweeps at volume). */
const SEND_BATCH = 500;
/** Provider calls in flight at once: enough to hide their latency, few enough for the provider's rate limits. */
const SEND_CONCURRENCY = 8;
/** A seller whose payouts wait is looked at again at most this often (a missed account.updated heals here). */
const WAITING_LOOK_MS = 10 * 60_000;
const REFUNDED = "The buyer's payment was refunded or canceled after the release: the payout is not sent. An admin must decide it.";

/**
 * Sends released payouts (D22, ADR 0063): each attempt is counted before the provider is asked, and any attempt after
 * the first looks for the invoice's transfer before making one, so a crash, a lost answer or a key the provider forgot
 * never pays twice. A payout whose buyer's money is no longer captured is never sent. An account that cannot take it
 * makes the payout wait; an outage leaves it pending for the next round. Confirmations are recorded in batches, or
 * one by one when a batch cannot be.
 */
@Injectable()
export class PayoutSender {
  private readonly logger = new Logger('PayoutSender');

  constructor(
    private readonly sends: PayoutSendsRepository,
    private readonly records: RecordPayoutSends,
    private readonly accounts: PayoutAccountsRepository,
    private readonly intents: PaymentIntentsRepository,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /** Sends one payout and records it; a waiting one is sent when its seller's account can now take it. */
  async sendOne(payout: PayoutRecord): Promise<SendResult> {
    if (payout.status === 'paid' || payout.status === 'reversed') return 'paid';
    if (payout.status === 'waiting_for_account') {
      const account = await this.accounts.find(payout.seller_id);
      const refreshed = account ? await refreshAccount(this.provider.connect, this.accounts, account.provider_account_id).catch(() => null) : null;
      if (refreshed?.after.status !== 'enabled') return 'waiting';
    }
    return (await this.sendMany([payout])) === 1 ? 'paid' : ((await this.sends.statusOf(payout.id)) === 'waiting_for_account' ? 'waiting' : 'failed');
  }

  /** Payouts to send (new, or retried after a failure); answers how many were paid. */
  async sendPending(limit: number): Promise<number> {
    return this.sendMany(await this.sends.pending(limit));
  }

  /** Sends every payout of a seller whose account can now take them (account.updated made it enabled). */
  async sendWaitingFor(sellerId: string): Promise<number> {
    return this.sendMany(await this.sends.readyFor(sellerId));
  }

  /** Reads again, from the provider, the accounts of sellers whose payouts wait, and sends those now able to take them. */
  async refreshWaiting(limit: number): Promise<number> {
    let paid = 0;
    for (const sellerId of await this.sends.waitingSellers(WAITING_LOOK_MS, limit)) {
      const account = await this.accounts.find(sellerId);
      const refreshed = account ? await refreshAccount(this.provider.connect, this.accounts, account.provider_account_id).catch(() => null) : null;
      if (refreshed?.after.status === 'enabled') paid += await this.sendWaitingFor(sellerId);
      else await this.sends.touchWaiting(sellerId);
    }
    return paid;
  }

  /** Sends payouts SEND_CONCURRENCY at a time, recording each batch's transfers together; answers how many were paid. */
  async sendMany(payouts: PayoutRecord[]): Promise<number> {
    if (payouts.length === 0) return 0;
    const accounts = await this.accounts.statuses(payouts.map((p) => p.seller_id));
    let paid = 0;
    for (let i = 0; i < payouts.length; i += SEND_BATCH) {
      const batch = payouts.slice(i, i + SEND_BATCH);
      const held = await this.intents.capturedOf(batch.map((p) => p.invoice_id));
      const sendable: PayoutRecord[] = [];
      for (const payout of batch) {
        if (held.has(payout.invoice_id)) sendable.push(payout);
        else await this.sends.markFailed(payout.id, REFUNDED, false);
      }
      const attempts = await this.sends.beginAttempts(sendable.map((p) => p.id));
      const queue = [...sendable];
      const made: { payoutId: string; transfer: ProviderTransfer }[] = [];
      const worker = async () => {
        for (let payout = queue.shift(); payout; payout = queue.shift()) {
          const outcome = await this.transferFor(payout, accounts.get(payout.seller_id) ?? null, attempts.get(payout.id) ?? 1);
          if (typeof outcome !== 'string') made.push({ payoutId: payout.id, transfer: outcome });
        }
      };
      await Promise.all(Array.from({ length: SEND_CONCURRENCY }, worker));
      paid += await this.record(made);
    }
    return paid;
  }

  /** Records transfers made: the batch in one transaction, or each alone when the batch fails (one bad row holds none back). */
  private async record(made: { payoutId: string; transfer: ProviderTransfer }[]): Promise<number> {
    const testMode = this.provider.name === 'sandbox';
    try {
      return await this.records.markSentMany(made, testMode);
    } catch (error) {
      this.logger.warn(`Recording ${made.length} payouts together failed, one by one now: ${(error as Error).message}`);
      let recorded = 0;
      for (const item of made) {
        // What still fails is retried by the next round, which finds the transfer already made.
        recorded += await this.records.markSent(item.payoutId, item.transfer, testMode).then(
          (done) => (done ? 1 : 0),
          (failure: unknown) => (this.logger.warn(`Payout ${item.payoutId} not recorded: ${(failure as Error).message}`), 0),
        );
      }
      return recorded;
    }
  }

  /**
   * The provider's transfer for a payout: from its second attempt on, the one already made for its invoice if any; else a
   * new one under the payout's key.
   */
  private async transferFor(payout: PayoutRecord, account: PayoutAccountRecord | null, attempt: number): Promise<ProviderTransfer | 'waiting' | 'failed'> {
    if (!account || account.status !== 'enabled') {
      await this.sends.markWaiting(payout.id, `The seller's payout account is ${account?.status.replace(/_/g, ' ') ?? 'not set up'}`);
      return 'waiting';
    }
    try {
      const found = attempt > 1 ? await this.provider.connect.findTransfer(payout.invoice_id) : null;
      return (
        found ??
        (await this.provider.connect.createTransfer({
          amount_cents: payout.net_cents,
          currency: 'usd',
          destination: account.provider_account_id,
          transfer_group: payout.invoice_id,
          source_transaction: payout.source_transaction,
          idempotency_key: payout.idempotency_key,
          metadata: { invoice_id: payout.invoice_id, payout_id: payout.id },
        }))
      );
    } catch (error) {
      const unable = error instanceof ProviderError && error.code === 'account_unable';
      await this.sends.markFailed(payout.id, (error as Error).message, unable);
      if (unable) await refreshAccount(this.provider.connect, this.accounts, account.provider_account_id).catch(() => null);
      this.logger.warn(`Payout ${payout.id} not sent (${unable ? 'account cannot take it' : 'will retry'}): ${(error as Error).message}`);
      return unable ? 'waiting' : 'failed';
    }
  }
}

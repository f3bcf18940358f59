import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Actor, SellerPayoutsDto } from '@market/contracts';
import { centsToDollars, releaseByAccount, type PayoutAccountStatus } from '@market/domain';
import { requireActor } from '@market/server-kit';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider, type ProviderTransfer } from '../payments/payment-provider';
import { PaymentIntentsRepository } from '../payments/payment-intents.repository';
import { EscrowService } from '../payments/escrow.service';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { PayoutAccountsRepository } from './payout-accounts.repository';
import { refreshAccount } from './payout-account-refresh';
import { PayoutsRepository, type PayoutRecord, type ReleasedBy } from './payouts.repository';

const SELLER_LIST_LIMIT = 200;

/** What a release did: the payout and whether it went out now, or why it was refused (the money stays held). */
export type ReleaseOutcome =
  | { outcome: 'released'; payout: PayoutRecord; sent: 'paid' | 'waiting' | 'failed' }
  | { outcome: 'refused'; why: string; missing: boolean };

/**
 * Releases pay the seller (D22, ADR 0063): the held funds are captured into escrow if they were not yet, the release is
 * claimed once per invoice under its lock (ledger: escrow to the seller's payable and the platform's fee), and the
 * payout is one provider transfer of the sale price less the success fee, keyed by the invoice so a retry, a second
 * replica or a second admin never pays twice. A payout the provider could not make stays `pending` and the invoice
 * held until the transfer is confirmed; one to an account that cannot take payouts waits for it.
 */
@Injectable()
export class PayoutsService {
  private readonly logger = new Logger('Payouts');

  constructor(
    private readonly payouts: PayoutsRepository,
    private readonly accounts: PayoutAccountsRepository,
    private readonly intents: PaymentIntentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly escrow: EscrowService,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /** Releases an invoice's held funds to its seller (an admin, a dispute's decision, or the inspection period ending). */
  async release(invoiceId: string, releasedBy: ReleasedBy, now: Date): Promise<ReleaseOutcome> {
    const existing = await this.payouts.findByInvoice(invoiceId);
    if (!existing) {
      // Captured first, outside any lock (ADR 0047): a release only ever moves money already in the platform's balance.
      const captured = await this.escrow.captureInvoice(invoiceId);
      if (captured === 'failed') return { outcome: 'refused', why: 'The payment provider could not capture the held funds just now; they stay held. Try again shortly.', missing: false };
      const invoice = await this.invoices.findById(invoiceId);
      if (!invoice) return { outcome: 'refused', why: 'Invoice not found', missing: true };
      const status = await this.accountStatus(invoice.seller_id);
      if (releaseByAccount(status) === 'refuse') {
        return {
          outcome: 'refused',
          why: "The seller's payout account is restricted by the payment provider, so nothing can be sent to it. The funds stay held until the seller fixes it.",
          missing: false,
        };
      }
      const claim = await this.payouts.claimRelease(invoiceId, releasedBy, status === 'enabled', now, this.testMode());
      if (claim.outcome === 'refused') return { outcome: 'refused', why: claim.why, missing: claim.invoice === null };
      if (claim.outcome === 'claimed') this.logger.log(`Funds of ${claim.invoice.invoice_number} released (${describe(releasedBy)}): payout ${claim.payout.status}`);
      return this.sendReleased(claim.payout);
    }
    return this.sendReleased(existing);
  }

  /**
   * Sends one payout: the transfer already made for its invoice (a retry past the idempotency key's life), or a new
   * one under the invoice's key. The provider's refusal of the account makes it wait; an outage leaves it pending.
   */
  async send(payout: PayoutRecord): Promise<'paid' | 'waiting' | 'failed'> {
    const account = await this.accounts.find(payout.seller_id);
    if (!account || account.status !== 'enabled') {
      await this.payouts.markWaiting(payout.id, `The seller's payout account is ${account?.status.replace(/_/g, ' ') ?? 'not set up'}`);
      return 'waiting';
    }
    try {
      const found = payout.attempts > 0 ? await this.provider.findTransfer(payout.invoice_id) : null;
      const transfer = found ?? (await this.provider.createTransfer({
        amount_cents: payout.net_cents,
        currency: 'usd',
        destination: account.provider_account_id,
        transfer_group: payout.invoice_id,
        source_transaction: await this.chargeOf(payout.invoice_id),
        idempotency_key: payout.idempotency_key,
        metadata: { invoice_id: payout.invoice_id, payout_id: payout.id },
      }));
      await this.payouts.markSent(payout.id, transfer, this.testMode());
      return 'paid';
    } catch (error) {
      const unable = error instanceof ProviderError && error.code === 'account_unable';
      await this.payouts.markFailed(payout.id, (error as Error).message, unable);
      if (unable) await refreshAccount(this.provider, this.accounts, account.provider_account_id).catch(() => null);
      this.logger.warn(`Payout ${payout.id} not sent (${unable ? 'account cannot take it' : 'will retry'}): ${(error as Error).message}`);
      return unable ? 'waiting' : 'failed';
    }
  }

  /** Sends every payout of a seller whose account can now take them (account.updated made it enabled). */
  async sendWaitingFor(sellerId: string): Promise<number> {
    let paid = 0;
    for (const payout of await this.payouts.readyFor(sellerId)) if ((await this.send(payout)) === 'paid') paid += 1;
    return paid;
  }

  /** Payouts to retry, sent a few at a time; answers how many were paid. */
  async sendPending(limit: number, concurrency: number): Promise<number> {
    const queue = await this.payouts.pending(limit);
    let paid = 0;
    const worker = async () => {
      for (let payout = queue.shift(); payout; payout = queue.shift()) if ((await this.send(payout)) === 'paid') paid += 1;
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return paid;
  }

  /**
   * Applies a transfer notice (transfer.created, transfer.reversed): a transfer made for a payout we had not marked
   * (our answer was lost) is recorded now; a reversed one is booked back. False when the transfer is not ours.
   */
  async syncTransfer(transferId: string): Promise<boolean> {
    const transfer: ProviderTransfer | null = await this.provider.retrieveTransfer(transferId);
    if (!transfer) return false;
    const payout = (await this.payouts.findByTransfer(transfer.id)) ?? (transfer.transfer_group ? await this.payouts.findByInvoice(transfer.transfer_group) : null);
    if (!payout) return false;
    if (payout.status !== 'paid' && payout.status !== 'reversed') await this.payouts.markSent(payout.id, transfer, this.testMode());
    if (transfer.reversed && (await this.payouts.markReversed(payout.id, transfer))) {
      this.logger.warn(`Transfer ${transfer.id} of payout ${payout.id} was reversed at the provider: the seller is owed it again`);
    }
    return true;
  }

  /** The caller's sales' money (their Payouts section): held, waiting, being sent, paid; with the balance. */
  async sellerPayouts(actor: Actor | null): Promise<SellerPayoutsDto> {
    const user = requireActor(actor);
    const rows = await this.payouts.forSeller(user.user_id, SELLER_LIST_LIMIT);
    const sum = (pick: (row: (typeof rows)[number]) => number) => centsToDollars(rows.reduce((total, row) => total + pick(row), 0));
    const unsent = (row: (typeof rows)[number]) => row.held || row.status === 'waiting_for_account' || row.status === 'pending';
    return {
      balance: {
        in_escrow: sum((row) => (unsent(row) ? row.net_cents : 0)),
        paid_out: sum((row) => (row.status === 'paid' ? row.net_cents : 0)),
        fees: sum((row) => (row.held ? 0 : row.fee_cents)),
      },
      payouts: rows.map((row) => ({
        invoice_id: row.invoice_id,
        invoice_number: row.invoice_number,
        website_title: row.website_title,
        gross: centsToDollars(row.gross_cents),
        fee: centsToDollars(row.fee_cents),
        net: centsToDollars(row.net_cents),
        status: row.held ? 'in_escrow' : row.status,
        created_at: new Date(row.held ? row.invoice_created_at : row.created_at).toISOString(),
        paid_at: row.paid_at ? new Date(row.paid_at).toISOString() : null,
      })),
    };
  }

  private async sendReleased(payout: PayoutRecord): Promise<ReleaseOutcome> {
    const sent = payout.status === 'paid' || payout.status === 'reversed' ? 'paid' : payout.status === 'pending' ? await this.send(payout) : 'waiting';
    return { outcome: 'released', payout: (await this.payouts.findByInvoice(payout.invoice_id)) ?? payout, sent };
  }

  /** The seller's account status, read again from the provider unless it is enabled (a missed notice heals here). */
  private async accountStatus(sellerId: string): Promise<PayoutAccountStatus> {
    const record = await this.accounts.find(sellerId);
    if (!record) return 'not_started';
    if (record.status === 'enabled') return record.status;
    const refreshed = await refreshAccount(this.provider, this.accounts, record.provider_account_id).catch(() => null);
    return refreshed?.after.status ?? record.status;
  }

  /** The captured charge a payout comes from (Stripe's source_transaction), when the provider names one. */
  private async chargeOf(invoiceId: string): Promise<string | null> {
    const intent = await this.intents.findHolding(invoiceId);
    return intent ? ((await this.provider.retrieve(intent.provider_intent_id))?.charge_id ?? null) : null;
  }

  private testMode(): boolean {
    return this.provider.name === 'sandbox';
  }
}

function describe(releasedBy: ReleasedBy): string {
  return releasedBy.by === 'inspection' ? 'inspection period over' : `${releasedBy.by} ${releasedBy.admin_id}`;
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { isUuid, type Actor, type SellerPayoutsDto } from '@market/contracts';
import { centsToDollars, fundsHeld, releaseByAccount, releaseRefusal, type PayoutAccountStatus } from '@market/domain';
import { requireActor } from '@market/server-kit';
import { PAYMENT_PROVIDER, type PaymentProvider, type ProviderTransfer } from '../payments/payment-provider';
import { PaymentIntentsRepository } from '../payments/payment-intents.repository';
import { EscrowService } from '../payments/escrow.service';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { TransferRepository } from '../transfer/transfer.repository';
import { PayoutSender, type SendResult } from './payout-sender';
import { RecordPayoutSends } from './record-payout-sends';
import { PayoutAccountsRepository } from './payout-accounts.repository';
import { refreshAccount } from './payout-account-refresh';
import { PayoutsRepository, type PayoutRecord, type ReleasedBy } from './payouts.repository';
import { ReleaseFunds } from './release-funds';

const SELLER_LIST_LIMIT = 200;
/** Invoices claimed per transaction (D22 sweeps at volume). */
const CLAIM_BATCH = 500;
const RESTRICTED = "The seller's payout account is restricted by the payment provider, so nothing can be sent to it. The funds stay held until the seller fixes it.";


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
    private readonly releases: ReleaseFunds,
    private readonly accounts: PayoutAccountsRepository,
    private readonly intents: PaymentIntentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly escrow: EscrowService,
    private readonly sender: PayoutSender,
    private readonly sends: RecordPayoutSends,
    private readonly disputes: TransferRepository,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /** Releases an invoice's held funds to its seller (an admin, a dispute's decision, or the inspection period ending). */
  async release(invoiceId: string, releasedBy: ReleasedBy): Promise<ReleaseOutcome> {
    const existing = await this.payouts.findByInvoice(invoiceId);
    if (existing) return this.released(existing, await this.sender.sendOne(existing));
    // What refuses a release is checked before anything moves (the claim checks again under the lock).
    const invoice = await this.invoices.findById(invoiceId);
    if (!invoice) return { outcome: 'refused', why: 'Invoice not found', missing: true };
    const early = invoice.refund_started_at ? 'A refund of this invoice is under way, so its funds cannot be released.' : await this.earlyRefusal(invoice, releasedBy);
    if (early) return { outcome: 'refused', why: early, missing: false };
    const status = await this.accountStatus(invoice.seller_id);
    if (releaseByAccount(status) === 'refuse') return { outcome: 'refused', why: RESTRICTED, missing: false };
    // Captured first, outside any lock (ADR 0047): a release only ever moves money already in the platform's balance.
    const captured = await this.escrow.captureInvoice(invoiceId);
    if (captured === 'failed') return { outcome: 'refused', why: 'The payment provider could not capture the held funds just now; they stay held. Try again shortly.', missing: false };
    const claim = await this.releases.claimRelease(invoiceId, releasedBy, status === 'enabled', this.testMode());
    if (claim.outcome === 'refused') return { outcome: 'refused', why: claim.why, missing: claim.invoice === null };
    if (claim.outcome === 'claimed') this.logger.log(`Funds of ${claim.invoice.invoice_number} released (${describe(releasedBy)}): payout ${claim.payout.status}`);
    return this.released(claim.payout, await this.sender.sendOne(claim.payout));
  }

  /**
   * Releases many invoices at once (the escrow sweep, D22): holds still uncaptured are captured first, sellers whose
   * account is restricted are skipped (their money stays held), the rest are claimed in batches and their payouts sent
   * a few at a time, each batch's confirmations recorded together. Answers how many were released.
   */
  async releaseMany(invoiceIds: string[], releasedBy: ReleasedBy): Promise<number> {
    for (const invoiceId of await this.intents.uncapturedOf(invoiceIds)) await this.escrow.captureInvoice(invoiceId);
    let released = 0;
    for (let i = 0; i < invoiceIds.length; i += CLAIM_BATCH) {
      const batch = invoiceIds.slice(i, i + CLAIM_BATCH);
      const sellers = await this.invoices.sellersOf(batch);
      const statuses = await this.accountStatuses([...new Set(sellers.values())]);
      const allowed = batch.filter((id) => releaseByAccount(statuses.get(sellers.get(id) as string) ?? 'not_started') !== 'refuse');
      const claims = await this.releases.claimReleases(allowed, releasedBy, (seller) => statuses.get(seller) === 'enabled', this.testMode());
      const claimed = [...claims.values()].flatMap((c) => (c.outcome === 'claimed' ? [c.payout] : []));
      released += claimed.length;
      await this.sender.sendMany(claimed.filter((p) => p.status === 'pending'));
    }
    return released;
  }

  /**
   * Applies a transfer notice (transfer.created, transfer.reversed): a transfer made for a payout we had not marked
   * (our answer was lost) is recorded now; a reversed one is booked back. False when the transfer is not ours.
   */
  async syncTransfer(transferId: string): Promise<boolean> {
    const transfer: ProviderTransfer | null = await this.provider.connect.retrieveTransfer(transferId);
    if (!transfer) return false;
    // A transfer group that is not an invoice's id is someone else's transfer (the dashboard, another integration).
    const group = transfer.transfer_group && isUuid(transfer.transfer_group) ? transfer.transfer_group : null;
    const payout = (await this.payouts.findByTransfer(transfer.id)) ?? (group ? await this.payouts.findByInvoice(group) : null);
    if (!payout) return false;
    const account = await this.accounts.find(payout.seller_id);
    if (payout.provider_transfer_id !== transfer.id && account?.provider_account_id !== transfer.destination) {
      this.logger.warn(`Transfer ${transfer.id} names invoice ${payout.invoice_id} but goes to ${transfer.destination}, not its seller's account: not recorded`);
      return false;
    }
    if (payout.status !== 'paid' && payout.status !== 'reversed') await this.sends.markSent(payout.id, transfer, this.testMode());
    if (transfer.reversed && (await this.sends.markReversed(payout.id, transfer))) {
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

  /** Why an invoice's funds cannot be released now, read before anything moves; null when the claim may go ahead. */
  private async earlyRefusal(invoice: InvoiceRecord, releasedBy: ReleasedBy): Promise<string | null> {
    if (releasedBy.by === 'dispute') return fundsHeld(invoice.status) ? null : `No funds are held for this invoice; it is ${invoice.status.replace(/_/g, ' ')}.`;
    return releaseRefusal(invoice, await this.disputes.hasOpen(invoice.id), false);
  }

  /** The release's answer with the payout as it stands now (a notice may have recorded the transfer meanwhile). */
  private async released(payout: PayoutRecord, sent: SendResult): Promise<ReleaseOutcome> {
    const fresh = (await this.payouts.findByInvoice(payout.invoice_id)) ?? payout;
    return { outcome: 'released', payout: fresh, sent: fresh.status === 'paid' || fresh.status === 'reversed' ? 'paid' : sent };
  }

  /** Sellers' account statuses; one not enabled is read again from the provider (a missed notice heals here). */
  private async accountStatuses(sellerIds: string[]): Promise<Map<string, PayoutAccountStatus>> {
    const records = await this.accounts.statuses(sellerIds);
    const statuses = new Map<string, PayoutAccountStatus>();
    for (const sellerId of sellerIds) {
      const record = records.get(sellerId);
      statuses.set(sellerId, record ? (record.status === 'enabled' ? 'enabled' : await this.accountStatus(sellerId)) : 'not_started');
    }
    return statuses;
  }

  /** The seller's account status, read again from the provider unless it is enabled (a missed notice heals here). */
  private async accountStatus(sellerId: string): Promise<PayoutAccountStatus> {
    const record = await this.accounts.find(sellerId);
    if (!record) return 'not_started';
    if (record.status === 'enabled') return record.status;
    const refreshed = await refreshAccount(this.provider.connect, this.accounts, record.provider_account_id).catch(() => null);
    return refreshed?.after.status ?? record.status;
  }

  private testMode(): boolean {
    return this.provider.name === 'sandbox';
  }
}

function describe(releasedBy: ReleasedBy): string {
  return releasedBy.by === 'inspection' ? 'inspection period over' : `${releasedBy.by} ${releasedBy.admin_id}`;
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Actor, InvoiceActionResponse, OpenDisputeRequest, ResolveDisputeRequest } from '@market/contracts';
import { DEFAULT_INSPECTION_DAYS, disputeReasonRefusal, isInspectionDays } from '@market/domain';
import { conflict, notFound, publicProfiles, requireActor, requireAdmin, ServiceRpc, SettingsClient } from '@market/server-kit';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { presentInvoice } from '../invoices/invoice.presenter';
import { authorizeInvoice, type InvoiceViewer } from '../invoices/invoice.policy';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider';
import { PaymentIntentsRepository } from '../payments/payment-intents.repository';
import { PaymentEventsHandler } from '../payments/payment-events.handler';
import { TransferRepository, type LockedChange } from './transfer.repository';
import { TransferSteps } from './transfer-steps';
import { EscrowService } from '../payments/escrow.service';
import { PayoutsService } from '../payouts/payouts.service';
import { PayoutsRepository } from '../payouts/payouts.repository';
import { EscrowFactsReader } from '../invoices/escrow-facts.reader';

/**
 * The transfer checklist and disputes of an invoice whose funds are held (ADR 0039). Each method checks who asks
 * first (a stranger gets 404, the other party 403), then the invoice's state under its lock (409 naming what must
 * happen first); a retry of a step already done answers the invoice as it is (200).
 */
@Injectable()
export class TransferService {
  private readonly logger = new Logger('TransferService');

  constructor(
    private readonly steps: TransferSteps,
    private readonly transfer: TransferRepository,
    private readonly invoices: InvoicesRepository,
    private readonly intents: PaymentIntentsRepository,
    private readonly events: PaymentEventsHandler,
    private readonly rpc: ServiceRpc,
    private readonly escrow: EscrowService,
    private readonly payouts: PayoutsService,
    private readonly payoutRecords: PayoutsRepository,
    private readonly settings: SettingsClient,
    private readonly escrowFacts: EscrowFactsReader,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
  ) {}

  /**
   * The seller marks the transfer started; the buyer's held funds are then captured into escrow (D22), so a hand-over
   * longer than the card hold's 7 days is still paid. A capture the provider cannot make now is retried by the sweep.
   */
  async markTransferStarted(actor: Actor | null, invoiceId: string): Promise<InvoiceActionResponse> {
    await this.party(actor, invoiceId, 'seller', 'Only the seller can mark the transfer started');
    const change = await this.steps.markTransferStarted(invoiceId, new Date());
    if (change && change.outcome !== 'refused') {
      const captured = await this.escrow.captureInvoice(invoiceId);
      if (captured === 'captured' || captured === 'already') change.invoice = (await this.invoices.findById(invoiceId)) ?? change.invoice;
    }
    return this.answer(change, 'seller', 'Transfer marked as started. The buyer\'s funds are held in escrow until the transfer is verified; the buyer has been asked to confirm once they have the site.');
  }

  /** The buyer confirms they have received the site: the inspection period starts (D22). */
  async confirmReceived(actor: Actor | null, invoiceId: string): Promise<InvoiceActionResponse> {
    await this.party(actor, invoiceId, 'buyer', 'Only the buyer can confirm they have received the site');
    const change = await this.steps.confirmReceived(invoiceId, new Date());
    const days = await this.inspectionDays();
    return this.answer(
      change,
      'buyer',
      `Thank you: receipt confirmed. The funds are released to the seller after the ${days}-day inspection period unless you open a dispute before then.`,
    );
  }

  /** The buyer disputes the transfer; the seller is emailed through dispute.opened. */
  async openDispute(actor: Actor | null, invoiceId: string, request: OpenDisputeRequest): Promise<InvoiceActionResponse> {
    const buyer = await this.party(actor, invoiceId, 'buyer', 'Only the buyer can open a dispute');
    const invoice = await this.invoices.findById(invoiceId);
    const refusal = disputeReasonRefusal(request.reason, Boolean(invoice?.transfer_received_at));
    if (refusal) throw conflict(refusal);
    const change = await this.steps.openDispute(invoiceId, { buyer_id: buyer.user_id, reason: request.reason, message: request.message }, new Date());
    return this.answer(change, 'buyer', 'Dispute opened. The seller has been told, and an admin will decide before the payment hold ends.');
  }

  /**
   * A real admin decides an open dispute: the decision and note are claimed first (so a second admin cannot decide the
   * other way), the provider moves the money, the act is audited (ADR 0032), and the reconciliation closes the dispute
   * and tells both parties. A provider refusal frees the claim and is a 409 with its reason.
   */
  async resolveDispute(actor: Actor | null, invoiceId: string, request: ResolveDisputeRequest): Promise<InvoiceActionResponse> {
    const admin = requireAdmin(actor);
    const claim = await this.steps.claimResolution(invoiceId, admin, request.action, request.note);
    if (!claim) throw notFound('Invoice not found');
    if (claim.outcome === 'refused') throw conflict(claim.why);
    if (claim.outcome === 'claimed') {
      const moved = await this.moveHeldFunds(invoiceId, request.action, admin);
      if (moved !== 'moved') {
        const fresh = (await this.transfer.latestFor([invoiceId])).get(invoiceId);
        const wanted = request.action === 'release' ? 'released' : 'refunded';
        // The money moved some other way meanwhile (the hold lapsed or was canceled at the provider): say so, audit nothing.
        if (fresh?.closed_at && fresh.outcome !== wanted) {
          throw conflict(`This dispute already ended: the funds were ${fresh.outcome === 'lapsed' ? 'returned when the hold lapsed' : fresh.outcome}`);
        }
        // A retry after a move that went through finds the dispute closed by the reconciliation: nothing left to do.
        if (!fresh?.closed_at) {
          await this.transfer.clearResolution(claim.dispute.id);
          throw conflict(moved === null ? 'No funds are held for this invoice any more, so the dispute cannot be decided by a release or refund' : moved.refused);
        }
      }
      await this.steps.recordResolutionAct(admin, claim.invoice, claim.dispute);
      this.logger.log(`Admin ${admin.user_id} resolved the dispute on ${claim.invoice.invoice_number} by ${request.action}`);
    } else if (claim.dispute.resolution && !claim.dispute.resolution_audited_at && claim.dispute.resolved_by === admin.user_id) {
      // The deciding admin retries after the money moved but before the act was recorded (a crash, a lost answer): the
      // audit is written now, once (ADR 0032), instead of never.
      await this.steps.recordResolutionAct(admin, claim.invoice, claim.dispute);
    }
    const invoice = await this.invoices.findById(invoiceId);
    const message = request.action === 'release' ? 'Dispute resolved: the funds were released to the seller.' : 'Dispute resolved: the buyer was refunded.';
    return { message, invoice: await this.present(invoice ?? claim.invoice, 'admin') };
  }

  /**
   * Releases the held funds to the seller (D22: captured if need be, then paid out) or refunds them (a hold canceled,
   * captured funds refunded from escrow), then reconciles; null when no funds are held.
   */
  private async moveHeldFunds(invoiceId: string, action: 'release' | 'refund', admin: Actor): Promise<'moved' | { refused: string } | null> {
    const intent = await this.intents.findHolding(invoiceId);
    if (!intent) return null;
    if (action === 'release') {
      const outcome = await this.payouts.release(invoiceId, { by: 'dispute', admin_id: admin.user_id });
      return outcome.outcome === 'released' ? 'moved' : { refused: outcome.why };
    }
    const refunded = await this.escrow.refund(intent, { forDispute: true });
    await this.events.sync(intent.provider_intent_id);
    return 'refused' in refunded ? { refused: refunded.refused } : 'moved';
  }

  /** The admin's inspection period (D22), or its default when the settings cannot be read. */
  private async inspectionDays(): Promise<number> {
    const settings = await this.settings.get().catch(() => null);
    return isInspectionDays(settings?.inspection_days) ? settings.inspection_days : DEFAULT_INSPECTION_DAYS;
  }

  /** The actor when they are the invoice's `role`; 404 for a stranger, 403 for the other party (or an admin). */
  private async party(actor: Actor | null, invoiceId: string, role: 'buyer' | 'seller', refusal: string): Promise<Actor> {
    const user = requireActor(actor);
    authorizeInvoice(user, await this.invoices.findById(invoiceId), { party: role, refusal });
    return user;
  }

  private async answer(change: LockedChange | null, viewer: InvoiceViewer, message: string): Promise<InvoiceActionResponse> {
    if (!change) throw notFound('Invoice not found');
    if (change.outcome === 'refused') throw conflict(change.why);
    return { message, invoice: await this.present(change.invoice, viewer) };
  }

  private async present(invoice: InvoiceRecord, viewer: InvoiceViewer) {
    const names = await publicProfiles(this.rpc, [invoice.buyer_id, invoice.seller_id]);
    const disputes = await this.transfer.latestFor([invoice.id]);
    const escrow = (await this.escrowFacts.of([invoice.id])).get(invoice.id);
    return presentInvoice(invoice, viewer, names, this.provider.name === 'sandbox', disputes.get(invoice.id) ?? null, escrow);
  }
}

import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { RPC, type Actor, type BuyNowResponse, type InvoiceDto, type InvoicePdfFile, type InvoicesResponse, type MarkPaidResponse } from '@market/contracts';
import { badRequest, notFound, publicProfiles, requireActor, ServiceRpc } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { InvoicesRepository, type InvoiceRecord } from './invoices.repository';
import { presentInvoice } from './invoice.presenter';
import { authorizeInvoice, type InvoiceViewer } from './invoice.policy';
import { invoiceFileName, renderInvoicePdf } from './invoice-pdf';
import { PaymentsService } from '../payments/payments.service';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider';
import { TransferRepository } from '../transfer/transfer.repository';
import { EscrowFactsReader, type EscrowFacts } from './escrow-facts.reader';

const LIST_LIMIT = 500;
const POLL_MS = 50;

export const BUY_NOW_MESSAGE = 'Purchase successful! Complete your payment from your invoices.';
export const BUY_NOW_CHECKOUT_MESSAGE = 'Purchase successful! Redirecting you to secure payment...';
export const PAYMENT_SETUP_FAILED_MESSAGE = 'Purchase successful, but payment setup failed. Please check Dashboard → Invoices or contact support.';

/**
 * Invoices (D10) for their buyers, sellers and admins, and buy-now purchases (D4). Every method checks who asks before
 * anything else; an invoice someone may not see does not exist for them (404).
 */
@Injectable()
export class InvoicesService {
  private readonly logger = new Logger('InvoicesService');

  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly rpc: ServiceRpc,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'BUY_NOW_INVOICE_WAIT_MS'> & Partial<Pick<BillingConfig, 'BUY_NOW_CHECKOUT'>>,
    @Inject(PAYMENT_PROVIDER) private readonly provider: Pick<PaymentProvider, 'name'>,
    @Optional() private readonly payments?: PaymentsService,
    @Optional() private readonly transfer?: TransferRepository,
    @Optional() private readonly escrow?: EscrowFactsReader,
  ) {}

  /** The actor's invoices as buyer and as seller, newest first (the Invoices tab). */
  async list(actor: Actor | null): Promise<InvoicesResponse> {
    const user = requireActor(actor);
    const rows = await this.invoices.listFor(user.user_id, LIST_LIMIT);
    const names = await publicProfiles(this.rpc, rows.flatMap((r) => [r.buyer_id, r.seller_id]));
    const disputes = await this.disputesOf(rows.map((r) => r.id));
    const escrow = await this.escrowOf(rows.map((r) => r.id));
    return {
      invoices: rows.map((row) =>
        presentInvoice(row, row.buyer_id === user.user_id ? 'buyer' : 'seller', names, this.testMode, disputes.get(row.id) ?? null, escrow.get(row.id)),
      ),
    };
  }

  /** One invoice, for its buyer, its seller or a real admin. */
  async get(actor: Actor | null, id: string): Promise<InvoiceDto> {
    const { invoice, viewer } = await this.visible(actor, id);
    return this.present(invoice, viewer);
  }

  /** The seller records a payment made outside the platform: pending invoices only (SPEC §4). */
  async markPaid(actor: Actor | null, id: string): Promise<MarkPaidResponse> {
    await this.visible(actor, id, { party: 'seller', refusal: 'Only the seller can mark this invoice as paid' });
    const result = await this.invoices.transition(id, 'marked_paid', new Date());
    if (!result) throw notFound('Invoice not found');
    if (!result.applied) throw badRequest(`Only a pending invoice can be marked as paid; this invoice is ${result.invoice.status.replace(/_/g, ' ')}`);
    return { message: 'Invoice marked as paid', invoice: await this.present(result.invoice, 'seller') };
  }

  /** The invoice as a PDF named after its number, in the viewer's version (fees and payout for the seller). */
  async pdf(actor: Actor | null, id: string): Promise<InvoicePdfFile> {
    const { invoice, viewer } = await this.visible(actor, id);
    const dto = await this.present(invoice, viewer);
    const bytes = await renderInvoicePdf(dto);
    return { file_name: invoiceFileName(dto), content_base64: bytes.toString('base64') };
  }

  /**
   * Buys a listing now (D4): the bidding service makes the sale (its 400s and 404s pass through unchanged), and its
   * bid.accepted event makes the invoice here within milliseconds; this waits for that invoice. With BUY_NOW_CHECKOUT
   * the answer sends the buyer to a hosted checkout for it (ADR 0020); without it, or when no checkout can be made, the
   * buyer pays from the Invoices tab (fallback_payment_required). If the invoice does not appear in time the sale still
   * stands and the answer says payment_setup_failed (SPEC §8).
   */
  async buyNow(actor: Actor | null, listingId: string): Promise<BuyNowResponse> {
    const buyer = requireActor(actor);
    const sale = await this.rpc.call(RPC.bidding.buyNow, { listing_id: listingId }, buyer);
    const invoice = await this.waitForInvoice(sale.bid_id, this.config.BUY_NOW_INVOICE_WAIT_MS);
    if (!invoice) {
      this.logger.warn(`No invoice for buy-now bid ${sale.bid_id} on listing ${listingId} within ${this.config.BUY_NOW_INVOICE_WAIT_MS} ms`);
      return {
        message: PAYMENT_SETUP_FAILED_MESSAGE,
        redirect_to_payment: false,
        payment: null,
        fallback_payment_required: false,
        invoice: null,
        payment_setup_failed: true,
      };
    }
    const checkoutUrl = await this.checkoutUrl(invoice);
    if (checkoutUrl) {
      return {
        message: BUY_NOW_CHECKOUT_MESSAGE,
        redirect_to_payment: true,
        payment: { checkout_url: checkoutUrl },
        fallback_payment_required: false,
        invoice: { id: invoice.id, invoice_number: invoice.invoice_number },
        payment_setup_failed: false,
      };
    }
    return {
      message: BUY_NOW_MESSAGE,
      redirect_to_payment: false,
      payment: null,
      fallback_payment_required: true,
      invoice: { id: invoice.id, invoice_number: invoice.invoice_number },
      payment_setup_failed: false,
    };
  }

  /** A checkout for the new invoice, or null (no checkout configured, or it failed: the invoice fallback applies). */
  private async checkoutUrl(invoice: InvoiceRecord): Promise<string | null> {
    if (!this.config.BUY_NOW_CHECKOUT || !this.payments) return null;
    try {
      return await this.payments.checkoutFor(invoice);
    } catch (error) {
      this.logger.warn(`No checkout for invoice ${invoice.invoice_number}: ${(error as Error).message}`);
      return null;
    }
  }

  private async waitForInvoice(bidId: string, waitMs: number): Promise<InvoiceRecord | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const invoice = await this.invoices.findByBid(bidId);
      if (invoice || Date.now() >= deadline) return invoice;
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
    }
  }

  /** The invoice and how the actor sees it, once the policy lets them (404 for anyone who may not see it). */
  private async visible(actor: Actor | null, id: string, only?: Parameters<typeof authorizeInvoice>[2]): Promise<{ invoice: InvoiceRecord; viewer: InvoiceViewer }> {
    const user = requireActor(actor);
    return authorizeInvoice(user, await this.invoices.findById(id), only);
  }

  private async present(invoice: InvoiceRecord, viewer: InvoiceViewer): Promise<InvoiceDto> {
    const dispute = (await this.disputesOf([invoice.id])).get(invoice.id) ?? null;
    const escrow = (await this.escrowOf([invoice.id])).get(invoice.id);
    return presentInvoice(invoice, viewer, await publicProfiles(this.rpc, [invoice.buyer_id, invoice.seller_id]), this.testMode, dispute, escrow);
  }

  private disputesOf(invoiceIds: string[]) {
    return this.transfer ? this.transfer.latestFor(invoiceIds) : Promise.resolve(new Map());
  }

  private escrowOf(invoiceIds: string[]): Promise<Map<string, EscrowFacts>> {
    return this.escrow ? this.escrow.of(invoiceIds) : Promise.resolve(new Map());
  }

  // The sandbox moves no real money: every invoice says so while it runs (ADR 0033).
  private get testMode(): boolean {
    return this.provider.name === 'sandbox';
  }
}

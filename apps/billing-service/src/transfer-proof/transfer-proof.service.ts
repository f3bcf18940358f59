import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Actor, TransferProofDto } from '@market/contracts';
import { fundsHeld, nextProofCheckAt, refusedProofCheck, waitInWords, OWNERSHIP_FILE_PATH, ownershipRecord, proofDomainOf } from '@market/domain';
import { badRequest, conflict, DomainProofChecker, rateLimited, requireActor, unavailable } from '@market/server-kit';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { authorizeInvoice } from '../invoices/invoice.policy';
import { TransferProofRepository, type TransferProofRecord } from './transfer-proof.repository';

/**
 * Transfer verification (ADR 0040): while an invoice's funds are held, its buyer publishes a token of their own on the
 * bought site's domain; a check that finds it marks the invoice "transfer verified", which both parties read on the
 * invoice and admins beside Release Funds. It releases nothing by itself: an admin still captures (D11).
 */
@Injectable()
export class TransferProofService {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly proofs: TransferProofRepository,
    private readonly checker: DomainProofChecker,
  ) {}

  /** The buyer's token for the invoice (made on first ask), how to publish it, and whether the transfer is verified. */
  async proof(actor: Actor | null, invoiceId: string): Promise<TransferProofDto> {
    const invoice = await this.buyersHeldInvoice(actor, invoiceId);
    return present(invoice, await this.proofs.tokenFor(invoice.id, invoice.buyer_id, newToken()));
  }

  /** Checks the site's domain for the buyer's token now: 200 verified, 400 what to fix, 503 no answer, 429 too soon. */
  async check(actor: Actor | null, invoiceId: string): Promise<TransferProofDto> {
    const invoice = await this.buyersHeldInvoice(actor, invoiceId);
    const domain = proofDomainOf(invoice.website_url ?? '');
    if (!domain) throw badRequest('This sale has no website domain to check. Please contact support to verify the transfer.');
    await this.proofs.tokenFor(invoice.id, invoice.buyer_id, newToken());
    const proof = await this.proofs.transaction(async (manager) => {
      const current = (await this.proofs.lock(invoice.id, manager)) as TransferProofRecord;
      const now = new Date();
      const refused = refusedProofCheck(current, now);
      if (refused) {
        throw rateLimited(`This site's domain was checked a moment ago. Please try again in ${waitInWords(refused.reset_seconds)}.`, { ...refused, unit: 'requests', remaining: 0 });
      }
      return this.proofs.countCheck(invoice.id, now, manager);
    });
    const found = await this.checker.check(domain, proof.token);
    if (!found.verified) throw found.reason === 'timeout' ? unavailable(found.detail) : badRequest(found.detail);
    const verified = await this.proofs.recordVerified(invoice.id, found.method, new Date());
    if (!verified) throw conflict('The funds are no longer held for this invoice, so there is no transfer left to verify.');
    return present(invoice, verified);
  }

  /** The invoice, when the actor is its buyer and the funds are held: others learn nothing (404) or are refused (403). */
  private async buyersHeldInvoice(actor: Actor | null, invoiceId: string): Promise<InvoiceRecord> {
    const caller = requireActor(actor);
    const refusal = 'Only the buyer can verify the transfer with their own token';
    const { invoice } = authorizeInvoice(caller, await this.invoices.findById(invoiceId), { party: 'buyer', refusal });
    if (!fundsHeld(invoice.status)) {
      throw conflict(`The transfer can be verified only while your payment is held; this invoice is ${invoice.status.replace(/_/g, ' ')}`);
    }
    return invoice;
  }
}

/** 144 random bits, URL-safe, like a listing's ownership token. */
function newToken(): string {
  return randomBytes(18).toString('base64url');
}

function present(invoice: InvoiceRecord, proof: TransferProofRecord): TransferProofDto {
  const domain = proofDomainOf(invoice.website_url ?? '');
  const next = nextProofCheckAt(proof, new Date());
  return {
    invoice_id: invoice.id,
    domain,
    token: proof.token,
    txt_record: ownershipRecord(proof.token),
    file_url: domain ? `https://${domain}${OWNERSHIP_FILE_PATH}` : null,
    verified: proof.transfer_verified_at !== null,
    verified_at: proof.transfer_verified_at?.toISOString() ?? null,
    method: proof.transfer_verified_method,
    next_check_at: next?.toISOString() ?? null,
  };
}

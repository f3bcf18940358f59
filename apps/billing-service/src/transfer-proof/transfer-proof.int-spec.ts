import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Actor } from '@market/contracts';
import { DomainProofChecker, domainProofSettings, NodeDomainProofLookup } from '@market/server-kit';
import { startLocalDnsServer, startLocalProofSite, type LocalDnsServer, type LocalProofSite, type TestDatabase } from '@market/server-kit/testing';
import { InvoicesRepository, type InvoiceRecord } from '../invoices/invoices.repository';
import { InvoicesService } from '../invoices/invoices.service';
import { PaymentsService } from '../payments/payments.service';
import { member, NO_NAMES, openBillingDatabase, wireBilling } from '../testing/billing-under-test';
import { TransferProofRepository } from './transfer-proof.repository';
import { TransferProofService } from './transfer-proof.service';

// The silent-domain test waits out TIMEOUT_MS; the rest check with a timeout a loaded CI machine cannot overrun.
const TIMEOUT_MS = 800;
const PATIENT_MS = 5000;

describe('transfer verified by the buyer\'s token on the domain (ADR 0040)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let dns: LocalDnsServer;
  let site: LocalProofSite;
  let invoices: InvoicesRepository;
  let invoicesService: InvoicesService;
  let payments: PaymentsService;
  let proofs: TransferProofService;
  let impatientProofs: TransferProofService;
  const admin: Actor = { user_id: randomUUID(), role: 'admin' };

  interface Sale {
    invoice: InvoiceRecord;
    buyer: Actor;
    seller: Actor;
    intentId: string;
    domain: string;
  }

  /** An invoice for a site on its own domain whose buyer's card (4242) is held, as after the payment dialog. */
  const heldSale = async (): Promise<Sale> => {
    const sale = await pendingSale();
    const created = await payments.createPayment(sale.buyer, sale.invoice.id);
    await payments.sandboxConfirm(sale.buyer, created.payment_intent_id, {
      client_secret: created.client_secret,
      card_number: '4242424242424242',
      exp_month: 12,
      exp_year: 2099,
      cvc: '123',
    });
    expect((await invoices.findById(sale.invoice.id))?.status).toBe('payment_authorized');
    return { ...sale, intentId: created.payment_intent_id };
  };
  const pendingSale = async (): Promise<Sale> => {
    const buyer = member();
    const seller = member();
    const domain = `sold-${randomUUID().slice(0, 8)}.example.test`;
    const { invoice } = await invoices.createForSale(
      {
        bid_id: randomUUID(),
        listing_id: randomUUID(),
        buyer_id: buyer.user_id,
        seller_id: seller.user_id,
        website_title: 'Aquarium forum',
        website_url: `https://www.${domain}/forum`,
        sale_type: 'buy_now',
        amount: 4100,
        success_fee_percent: 5,
      },
      new Date(),
    );
    return { invoice, buyer, seller, intentId: '', domain: `www.${domain}` };
  };

  beforeAll(async () => {
    [dns, site] = await Promise.all([startLocalDnsServer(), startLocalProofSite()]);
    ({ db, ds } = await openBillingDatabase('billing_transfer_proof'));
    const b = wireBilling(ds);
    invoices = b.invoices;
    payments = b.payments;
    invoicesService = new InvoicesService(invoices, NO_NAMES, { BUY_NOW_INVOICE_WAIT_MS: 0 }, b.provider);
    // Test config only: the local DNS server and site on 127.0.0.1 (refused in production, ADR 0040).
    const checker = (timeoutMs: number) => {
      const settings = domainProofSettings({
        DOMAIN_PROOF_TIMEOUT_MS: timeoutMs,
        DOMAIN_PROOF_DNS_SERVERS: [dns.address],
        DOMAIN_PROOF_HTTP_SCHEME: 'http',
        DOMAIN_PROOF_HTTP_PORT: site.port,
        DOMAIN_PROOF_ALLOW_ADDRESSES: ['127.0.0.1'],
      });
      return new DomainProofChecker(new NodeDomainProofLookup(settings), { ms: settings.timeoutMs });
    };
    proofs = new TransferProofService(invoices, new TransferProofRepository(ds), checker(PATIENT_MS));
    impatientProofs = new TransferProofService(invoices, new TransferProofRepository(ds), checker(TIMEOUT_MS));
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
    await Promise.all([dns?.close(), site?.close()]);
  });

  it('gives the buyer their own token while the funds are held, and the invoice reads "transfer verified" once the domain shows it', async () => {
    const sale = await heldSale();
    const proof = await proofs.proof(sale.buyer, sale.invoice.id);
    expect(proof).toMatchObject({ invoice_id: sale.invoice.id, domain: sale.domain, verified: false, verified_at: null, method: null });
    expect(proof.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await proofs.proof(sale.buyer, sale.invoice.id)).token).toBe(proof.token);

    // The seller's listing token is still on the domain: not the buyer's, so not verified, and the answer says why.
    dns.set(sale.domain, { txt: ['site-market-verification=the-sellers-listing-token'] });
    await expect(proofs.check(sale.buyer, sale.invoice.id)).rejects.toMatchObject({ status: 400, detail: expect.stringContaining('but not this one') });
    expect((await invoicesService.get(sale.buyer, sale.invoice.id)).transfer.verified_at).toBeNull();
  });

  it('verifies by the well-known file and shows it to both parties and beside Release Funds', async () => {
    const sale = await heldSale();
    const { token } = await proofs.proof(sale.buyer, sale.invoice.id);
    dns.set(sale.domain, { a: ['127.0.0.1'] });
    site.set(sale.domain, { body: `site-market-verification=the-sellers-listing-token\n${token}\n` });
    const checked = await proofs.check(sale.buyer, sale.invoice.id);
    expect(checked).toMatchObject({ verified: true, method: 'file' });

    const forBuyer = await invoicesService.get(sale.buyer, sale.invoice.id);
    const forSeller = await invoicesService.get(sale.seller, sale.invoice.id);
    expect(forBuyer.transfer.verified_at).toBe(checked.verified_at);
    expect(forSeller.transfer.verified_at).toBe(checked.verified_at);
    const row = (await payments.adminList(admin)).payment_intents.find((p) => p.id === sale.intentId);
    expect(row?.transfer.verified_at).toBe(checked.verified_at);
  });

  it('verifies by a TXT record, paced per invoice', async () => {
    const sale = await heldSale();
    const { token, txt_record } = await proofs.proof(sale.buyer, sale.invoice.id);
    expect(txt_record).toBe(`site-market-verification=${token}`);
    dns.set(sale.domain, { txt: [txt_record] });
    expect(await proofs.check(sale.buyer, sale.invoice.id)).toMatchObject({ verified: true, method: 'dns' });
    await expect(proofs.check(sale.buyer, sale.invoice.id)).rejects.toMatchObject({
      status: 429,
      detail: expect.stringMatching(/try again in \d+ seconds?\.$/),
      // The quota travels with the error, for the gateway's RateLimit headers (ADR 0064).
      rateLimit: { policy: 'domain-check-pause', quota: 1, window_seconds: 10, unit: 'requests', remaining: 0, reset_seconds: expect.any(Number) },
    });
  });

  it('answers a silent domain with a quick 503', async () => {
    const sale = await heldSale();
    dns.set(sale.domain, { silent: true });
    const started = Date.now();
    await expect(impatientProofs.check(sale.buyer, sale.invoice.id)).rejects.toMatchObject({ status: 503, detail: expect.stringContaining('did not answer in time') });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 700);
  });

  it('lets only the buyer verify, and only while the funds are held', async () => {
    const pending = await pendingSale();
    await expect(proofs.proof(pending.buyer, pending.invoice.id)).rejects.toMatchObject({
      status: 409,
      detail: 'The transfer can be verified only while your payment is held; this invoice is pending',
    });
    const sale = await heldSale();
    await expect(proofs.check(sale.seller, sale.invoice.id)).rejects.toMatchObject({ status: 403, detail: 'Only the buyer can verify the transfer with their own token' });
    await expect(proofs.proof(admin, sale.invoice.id)).rejects.toMatchObject({ status: 403 });
    await expect(proofs.proof({ user_id: randomUUID(), role: 'regular' }, sale.invoice.id)).rejects.toMatchObject({ status: 404 });
    await expect(proofs.proof(null, sale.invoice.id)).rejects.toMatchObject({ status: 401 });
  });
});

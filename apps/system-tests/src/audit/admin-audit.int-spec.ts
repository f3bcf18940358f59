import type { AuditLogEntry } from '@market/contracts';
import { eventually } from '@market/server-kit/testing';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { createLiveListing } from '../support/auctions';
import { paidSale as paidSaleAt } from '../support/sales';

const ADMIN = { email: 'audit-admin@example.com', password: 'audit-admin-pass-1' };

/** What an entry says about the act, without its id and time. */
const actOf = (entry: AuditLogEntry) => ({
  action: entry.action,
  admin_id: entry.admin_id,
  impersonator_id: entry.impersonator_id,
  target_type: entry.target_type,
  target_id: entry.target_id,
  before: entry.before,
  after: entry.after,
  changed_secrets: entry.changed_secrets,
});

describe("every admin act in every service leaves exactly one audit entry (ADR 0032)", () => {
  let stack: Stack;
  let adminToken: string;
  let adminId: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const signUp = () => registerUser(stack.url);
  const asAdmin = () => bearer(adminToken);

  /**
   * The audit entries of one target, oldest first, once the last expected one is there. One service writes all of a
   * target's entries and its relay publishes them in order, so when the last is listed every earlier one is too: the
   * list is then complete, and any second entry for an act would be in it.
   */
  const entriesOf = (targetId: string, expected: number) =>
    eventually(async () => {
      const answer = await get(api(`/admin/audit?target=${targetId}&limit=200`), asAdmin());
      expect(answer.status).toBe(200);
      const entries = (answer.body.entries as AuditLogEntry[]).filter((entry) => entry.action !== 'request').reverse();
      expect(entries.length).toBeGreaterThanOrEqual(expected);
      return entries;
    }, 15_000);

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'admin', 'listings', 'bidding', 'billing'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_SCALE: '100', BROWSE_CACHE_MS: '0' },
    });
    const login = await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password });
    adminToken = login.body.access_token;
    adminId = login.body.user.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('auth-service: verify, suspend, reactivate and delete a user, each once with its before and after; nothing for a change to what already is', async () => {
    const user = await signUp();
    const patch = (body: object) => call('PATCH', api(`/admin/users/${user.id}`), body, asAdmin());
    expect((await patch({ verified: true })).status).toBe(200);
    expect((await patch({ verified: true })).status).toBe(200);
    expect((await patch({ status: 'suspended' })).status).toBe(200);
    expect((await patch({ status: 'suspended' })).status).toBe(200);
    expect((await patch({ status: 'active' })).status).toBe(200);
    expect((await call('DELETE', api(`/admin/users/${user.id}`), undefined, asAdmin())).status).toBe(200);

    const entries = await entriesOf(user.id, 4);
    const common = { admin_id: adminId, impersonator_id: null, target_type: 'user', target_id: user.id, changed_secrets: [] };
    expect(entries.map(actOf)).toEqual([
      { ...common, action: 'user.verified', before: { verified: false }, after: { verified: true } },
      { ...common, action: 'user.suspended', before: { status: 'active' }, after: { status: 'suspended' } },
      { ...common, action: 'user.activated', before: { status: 'suspended' }, after: { status: 'active' } },
      { ...common, action: 'user.deleted', before: { status: 'active' }, after: { status: 'deleted' } },
    ]);
    // The deleted user is named as the auth service names them now: scrubbed (D17); nothing personal was kept.
    expect(entries[3].target_label).toMatch(/^deleted-/);
    expect(JSON.stringify(entries)).not.toContain(user.email);
  });

  it('admin-service: a settings save is one entry with the changed keys; the SMTP password is only named', async () => {
    const current = (await get(api('/admin/settings'), asAdmin())).body;
    const saved = await post(api('/admin/settings'), { ...current, success_fee: 1.25, smtp_host: 'smtp.audit.example', smtp_password: 'audit-smtp-secret' }, asAdmin());
    expect(saved.status).toBe(200);
    const { body } = await eventually(async () => {
      const answer = await get(api(`/admin/audit?action=settings.updated&actor=${adminId}`), asAdmin());
      expect(answer.body.entries).toHaveLength(1);
      return answer;
    }, 15_000);
    expect(actOf(body.entries[0])).toEqual({
      action: 'settings.updated',
      admin_id: adminId,
      impersonator_id: null,
      target_type: 'settings',
      target_id: null,
      before: { smtp_host: current.smtp_host, success_fee: current.success_fee },
      after: { smtp_host: 'smtp.audit.example', success_fee: 1.25 },
      changed_secrets: ['smtp_password'],
    });
    expect(JSON.stringify(body)).not.toContain('audit-smtp-secret');
    // Back as it was, so the fee does not follow the other journeys.
    expect((await post(api('/admin/settings'), { ...current, smtp_password: '' }, asAdmin())).status).toBe(200);
  });

  it('listings-service: approve, feature, unfeature and delete a listing, each once; a seller change is not an admin act', async () => {
    const seller = await signUp();
    const listing = await createLiveListing(stack.url, seller.token, adminToken, { listing_type: 'fixed', starting_price: 2000 });
    const patch = (body: object) => call('PATCH', api(`/admin/listings/${listing.id}`), body, asAdmin());
    expect((await patch({ featured: true })).status).toBe(200);
    expect((await patch({ featured: false })).status).toBe(200);
    expect((await call('PATCH', api(`/listings/${listing.id}`), { status: 'paused' }, bearer(seller.token))).status).toBe(200);
    expect((await call('DELETE', api(`/admin/listings/${listing.id}`), undefined, asAdmin())).status).toBe(200);

    const entries = await entriesOf(listing.id, 4);
    const common = { admin_id: adminId, impersonator_id: null, target_type: 'listing', target_id: listing.id, changed_secrets: [] };
    expect(entries.map(actOf)).toEqual([
      { ...common, action: 'listing.status_changed', before: { status: 'pending' }, after: { status: 'active' } },
      { ...common, action: 'listing.featured', before: { featured: false }, after: { featured: true } },
      { ...common, action: 'listing.unfeatured', before: { featured: true }, after: { featured: false } },
      { ...common, action: 'listing.deleted', before: { status: 'paused', featured: false }, after: null },
    ]);
    expect(entries[0].target_label).toBe('Bird watching blog with a big newsletter');
  });

  it('billing-service: release and refund of payments, each once with the statuses; an impersonated try is refused and is no act; the impersonation is in the same log', async () => {
    /** A fixed-price sale bought now and paid with 4242: the funds held. */
    const paidSale = () => paidSaleAt(stack.url, adminToken);
    const released = await paidSale();
    const { buyer } = released;
    const impersonation = (await post(api(`/admin/impersonate/${buyer.id}`), undefined, asAdmin())).body.impersonation_token as string;
    expect((await post(api(`/admin/payment-intents/${released.intentId}/capture`), {}, bearer(impersonation))).status).toBe(403);
    const captured = await post(api(`/admin/payment-intents/${released.intentId}/capture`), { reason: 'Domain transfer verified' }, asAdmin());
    expect(captured.status).toBe(200);
    // Once released to the seller the money is theirs (D22): a refund is refused, and a refusal is no act.
    expect((await post(api(`/admin/payment-intents/${released.intentId}/refund`), { reason: 'Sale cancelled' }, asAdmin())).status).toBe(409);
    // Another sale, captured into escrow by the seller's start of the transfer, is refunded from escrow.
    const escrowed = await paidSale();
    await post(api(`/invoices/${escrowed.invoiceId}/transfer-started`), undefined, bearer(escrowed.seller.token));
    const refunded = await post(api(`/admin/payment-intents/${escrowed.intentId}/refund`), { reason: 'Sale cancelled' }, asAdmin());
    expect(refunded.status).toBe(200);

    const common = { admin_id: adminId, impersonator_id: null, target_type: 'payment', changed_secrets: [] };
    expect((await entriesOf(released.intentId, 1)).map(actOf)).toEqual([
      { ...common, target_id: released.intentId, action: 'payment.captured', before: { status: 'requires_capture' }, after: { status: 'succeeded' } },
    ]);
    expect((await entriesOf(escrowed.intentId, 1)).map(actOf)).toEqual([
      { ...common, target_id: escrowed.intentId, action: 'payment.refunded', before: { status: 'succeeded' }, after: { status: refunded.body.payment_intent.status } },
    ]);
    expect((await entriesOf(released.intentId, 1))[0].target_label).toBe(captured.body.payment_intent.invoice_number);
    // The refused try under impersonation changed nothing and is no admin act; the impersonation itself is in the same log.
    const started = await eventually(async () => {
      const answer = await get(api(`/admin/audit?target=${buyer.id}&action=impersonation.start`), asAdmin());
      expect(answer.body.entries).toHaveLength(1);
      return answer.body.entries as AuditLogEntry[];
    }, 15_000);
    expect(started[0]).toMatchObject({ admin_id: adminId, target_type: 'user', request: { method: 'POST', route: `/api/admin/impersonate/${buyer.id}` } });
  });
});

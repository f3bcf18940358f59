import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { eventually } from '@market/server-kit/testing';
import { bearer, get, post, signUp, startStack, postCounted, type Json, type Stack } from '../support/start-stack';

const ADMIN = { email: 'mailbox-admin@example.com', password: 'mailbox-admin-pass-1' };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe("the admin's email view never holds a usable one-time token (ADR 0031)", () => {
  let stack: Stack;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;

  beforeAll(async () => {
    // No SMTP server: emails go to the log transport and their bodies are kept for the admin's view.
    stack = await startStack({
      services: ['auth', 'notifications', 'admin'],
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'https://market.example', RATE_LIMIT_SCALE: '100' },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shows verification and reset links with the token redacted, and no kept copy matches a live token', async () => {
    // A member's links and an admin's own reset link: whoever reads the view must be able to use none of them.
    // Left unverified, so its verification token stays live too.
    const other = await signUp(stack.url, {}, { verified: false });
    await post(api('/auth/forgot-password'), { email: other.email });
    await post(api('/auth/forgot-password'), { email: ADMIN.email });

    const emails: Json[] = await eventually(async () => {
      const { body } = await get(api('/admin/emails'), bearer(adminToken));
      const kinds = body.emails.map((e: Json) => `${e.kind} ${e.to_address}`);
      expect(kinds).toEqual(expect.arrayContaining([`verify_email ${other.email}`, `reset_password ${other.email}`, `reset_password ${ADMIN.email}`]));
      return body.emails;
    }, 15_000);

    const linked = emails.filter((e) => e.kind === 'verify_email' || e.kind === 'reset_password');
    expect(linked.length).toBeGreaterThanOrEqual(3);
    for (const email of linked) {
      expect(email.text_body).toMatch(/https:\/\/market\.example\/(verify-email|reset-password)\?token=\[redacted\]/);
      expect(email.text_body.match(/token=[^\s&]*/g)).toEqual(['token=[redacted]']);
    }

    // Tokens are stored hashed (D15): no run of token characters in anything kept or shown hashes to a live token.
    const live: string[] = (await stack.service('auth').get(DataSource).query('SELECT token_hash FROM account_tokens WHERE used_at IS NULL')).map(
      (row: { token_hash: string }) => row.token_hash,
    );
    expect(live.length).toBeGreaterThanOrEqual(3);
    const kept: Array<{ text_body: string; html_body: string }> = await stack.service('notifications').get(DataSource).query('SELECT text_body, html_body FROM emails');
    const everything = [JSON.stringify(emails), ...kept.flatMap((row) => [row.text_body, row.html_body])].join('\n');
    const candidates = new Set(everything.match(/[A-Za-z0-9_-]{20,}/g) ?? []);
    for (const candidate of candidates) expect(live).not.toContain(sha256(candidate));

    // And the redacted link is just that: the reset page refuses it.
    const refused = await post(api('/auth/reset-password'), { token: '[redacted]', new_password: 'taken over passphrase' });
    expect(refused.status).toBe(400);
    expect((await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).status).toBe(200);
  });
});

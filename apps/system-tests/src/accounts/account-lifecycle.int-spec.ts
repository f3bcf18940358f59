import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildUser, eventually, startSmtpSink } from '@market/server-kit/testing';
import { FORGOT_PASSWORD_MESSAGE } from '@market/contracts';
import { bearer, call, get, post, signUp as registerUser, startStack, postCounted, type Stack } from '../support/start-stack';
import { latestLink } from '../support/mailbox';

const ADMIN = { email: 'chief@example.com', password: 'chief-admin-pass-1' };

describe('account lifecycle through the gateway', () => {
  let stack: Stack;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let adminToken: string;
  const api = (path: string) => `${stack.url}/api${path}`;
  const authDb = () => stack.service('auth').get(DataSource);

  // These members verify (or not) in the tests themselves, from the emails they receive.
  const signUp = (overrides = {}) => registerUser(stack.url, overrides, { verified: false });

  /** The link of the latest email of a kind to an address, read in the recipient's mailbox (the SMTP server's). */
  const linkFromEmail = (to: string, kind: 'verify_email' | 'reset_password') =>
    eventually(async () => {
      const link = latestLink(sink.messages, to, kind === 'verify_email' ? '/verify-email' : '/reset-password');
      expect(link).not.toBeNull();
      return link!;
    }, 15_000);

  beforeAll(async () => {
    sink = await startSmtpSink();
    stack = await startStack({
      services: ['auth', 'notifications', 'admin', 'listings', 'billing'],
      env: {
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        PUBLIC_URL: 'https://market.example',
        RATE_LIMIT_SCALE: '100',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(sink.port),
      },
    });
    adminToken = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token;
  });
  afterAll(async () => {
    await stack?.stop();
    await sink?.close();
  });

  describe('email verification', () => {
    it('verifies once with the emailed link; the token is stored hashed and leaves no copy in the outbox', async () => {
      const user = await signUp();
      const { url, token } = await linkFromEmail(user.email, 'verify_email');
      expect(url.startsWith('https://market.example/verify-email?token=')).toBe(true);

      const stored = await authDb().query('SELECT token_hash FROM account_tokens WHERE user_id = $1', [user.id]);
      expect(stored).toHaveLength(1);
      expect(stored[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      const outbox = await authDb().query("SELECT payload::text AS payload FROM outbox WHERE name = 'user.verification_requested'");
      for (const row of outbox) expect(row.payload).not.toContain(token);

      const verified = await post(api(`/auth/verify-email?token=${encodeURIComponent(token)}`), undefined);
      expect(verified.status).toBe(200);
      expect(verified.body.message).toMatch(/verified/i);
      expect((await get(api('/auth/me'), bearer(user.token))).body.email_verified).toBe(true);

      const again = await post(api(`/auth/verify-email?token=${encodeURIComponent(token)}`), undefined);
      expect(again.status).toBe(400);
      expect(again.body.detail).toBe('Invalid or expired verification link');
    });

    it('refuses an expired token and a missing one', async () => {
      const user = await signUp();
      const { token } = await linkFromEmail(user.email, 'verify_email');
      await authDb().query("UPDATE account_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1", [user.id]);
      expect((await post(api(`/auth/verify-email?token=${token}`), undefined)).status).toBe(400);
      expect((await get(api('/auth/me'), bearer(user.token))).body.email_verified).toBe(false);
      const missing = await post(api('/auth/verify-email'), undefined);
      expect(missing.status).toBe(422);
      expect(missing.body.detail[0].loc).toEqual(['query', 'token']);
    });

    it('asks for verification again when the email changes, and resends on request', async () => {
      const user = await signUp();
      const { token } = await linkFromEmail(user.email, 'verify_email');
      await post(api(`/auth/verify-email?token=${token}`), undefined);
      const newEmail = `changed_${user.email}`;
      const updated = await call('PATCH', api('/user/profile'), { name: 'Changed Person', email: newEmail, bio: 'Builds blogs', website: 'https://changed.example', current_password: user.password }, bearer(user.token));
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Changed Person', email: newEmail, email_verified: false, bio: 'Builds blogs', phone: null });
      const link = await linkFromEmail(newEmail, 'verify_email');
      expect((await post(api(`/auth/verify-email?token=${link.token}`), undefined)).status).toBe(200);
      const resend = await post(api('/auth/resend-verification'), undefined, bearer(user.token));
      expect(resend.status).toBe(400);
      expect(resend.body.detail).toBe('Your email is already verified');
    });

    it('validates the profile and refuses an email another account uses', async () => {
      const user = await signUp();
      const other = await signUp();
      const bad = await call('PATCH', api('/user/profile'), { name: '', email: 'nope', website: 'ftp://x' }, bearer(user.token));
      expect(bad.status).toBe(422);
      expect(bad.body.detail.map((i: { loc: string[] }) => i.loc.join('.'))).toEqual(['body.name', 'body.email', 'body.website']);
      const taken = await call('PATCH', api('/user/profile'), { name: 'X', email: other.email.toUpperCase(), current_password: user.password }, bearer(user.token));
      expect(taken.status).toBe(409);
    });
  });

  describe('password reset', () => {
    it('answers the same for unknown and known emails, then resets once and ends every session', async () => {
      const user = await signUp();
      const started = Date.now();
      const unknown = await post(api('/auth/forgot-password'), { email: `nobody_${Date.now()}@example.com` });
      const unknownMs = Date.now() - started;
      const known = await post(api('/auth/forgot-password'), { email: user.email.toUpperCase() });
      expect(unknown.status).toBe(200);
      expect(known.status).toBe(200);
      expect(unknown.body).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
      expect(known.body).toEqual(unknown.body);
      expect(unknownMs).toBeGreaterThanOrEqual(380);

      const { url, token } = await linkFromEmail(user.email, 'reset_password');
      expect(url.startsWith('https://market.example/reset-password?token=')).toBe(true);
      const weak = await post(api('/auth/reset-password'), { token, new_password: 'short' });
      expect(weak.status).toBe(422);
      const reset = await post(api('/auth/reset-password'), { token, new_password: 'a brand new passphrase' });
      expect(reset.status).toBe(200);
      expect(reset.body).not.toHaveProperty('access_token');

      expect((await get(api('/auth/me'), bearer(user.token))).status).toBe(401);
      expect((await post(api('/auth/login'), { login: user.username, password: user.password })).status).toBe(401);
      expect((await post(api('/auth/login'), { login: user.username, password: 'a brand new passphrase' })).status).toBe(200);
      const reuse = await post(api('/auth/reset-password'), { token, new_password: 'another new passphrase' });
      expect(reuse.status).toBe(400);
      expect(reuse.body.detail).toBe('Invalid or expired reset link');
    });

    it('voids a pending reset link when the email or the password changes', async () => {
      const user = await signUp();
      await post(api('/auth/forgot-password'), { email: user.email });
      const { token } = await linkFromEmail(user.email, 'reset_password');
      const moved = await call('PATCH', api('/user/profile'), { name: 'Moved', email: `moved_${user.email}`, current_password: user.password }, bearer(user.token));
      expect(moved.status).toBe(200);
      expect((await post(api('/auth/reset-password'), { token, new_password: 'stolen mailbox phrase' })).status).toBe(400);

      const other = await signUp();
      await post(api('/auth/forgot-password'), { email: other.email });
      const pending = await linkFromEmail(other.email, 'reset_password');
      const changed = await call('PATCH', api('/user/password'), { current_password: other.password, new_password: 'changed on purpose' }, bearer(other.token));
      expect(changed.status).toBe(200);
      expect((await post(api('/auth/reset-password'), { token: pending.token, new_password: 'stolen mailbox phrase' })).status).toBe(400);
    });

    it('refuses a reset token past its hour', async () => {
      const user = await signUp();
      await post(api('/auth/forgot-password'), { email: user.email });
      const { token } = await linkFromEmail(user.email, 'reset_password');
      await authDb().query("UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'reset_password'", [user.id]);
      expect((await post(api('/auth/reset-password'), { token, new_password: 'too late passphrase' })).status).toBe(400);
    });
  });

  describe('sessions', () => {
    it('changing the password ends other sessions and hands this one a new token', async () => {
      const user = await signUp();
      const second = (await post(api('/auth/login'), { login: user.email, password: user.password })).body.access_token;
      const wrong = await call('PATCH', api('/user/password'), { current_password: 'wrong password', new_password: 'fresh pass phrase' }, bearer(user.token));
      expect(wrong.status).toBe(400);
      const changed = await call('PATCH', api('/user/password'), { current_password: user.password, new_password: 'fresh pass phrase' }, bearer(user.token));
      expect(changed.status).toBe(200);
      expect((await get(api('/auth/me'), bearer(user.token))).status).toBe(401);
      expect((await get(api('/auth/me'), bearer(second))).status).toBe(401);
      const me = await get(api('/auth/me'), bearer(changed.body.access_token));
      expect(me.status).toBe(200);
    });

    it('suspension ends sessions and blocks login until the account is activated', async () => {
      const user = await signUp();
      const suspended = await call('PATCH', api(`/admin/users/${user.id}`), { status: 'suspended' }, bearer(adminToken));
      expect(suspended.status).toBe(200);
      expect(suspended.body.status).toBe('suspended');
      const me = await get(api('/auth/me'), bearer(user.token));
      expect(me.status).toBe(401);
      expect(me.body.detail).toBe('Your session has ended. Please log in again.');
      const login = await post(api('/auth/login'), { login: user.username, password: user.password });
      expect(login.status).toBe(403);
      expect(login.body.detail).toMatch(/suspended/);

      await call('PATCH', api(`/admin/users/${user.id}`), { status: 'active' }, bearer(adminToken));
      expect((await get(api('/auth/me'), bearer(user.token))).status).toBe(401);
      expect((await post(api('/auth/login'), { login: user.username, password: user.password })).status).toBe(200);
    });

    it('deletion scrubs the account, ends sessions and keeps the row', async () => {
      const user = await signUp({ });
      const deleted = await call('DELETE', api(`/admin/users/${user.id}`), undefined, bearer(adminToken));
      expect(deleted.status).toBe(200);
      expect((await get(api('/auth/me'), bearer(user.token))).status).toBe(401);
      expect((await post(api('/auth/login'), { login: user.username, password: user.password })).status).toBe(401);
      const [row] = await authDb().query('SELECT username, email, status, name FROM users WHERE id = $1', [user.id]);
      expect(row.status).toBe('deleted');
      expect(row.email).not.toContain(user.email);
      expect(row.username).not.toBe(user.username);
      const list = await get(api('/admin/users?limit=1000'), bearer(adminToken));
      expect(list.body.users.map((u: { id: string }) => u.id)).not.toContain(user.id);
      expect((await post(api('/auth/register'), buildUser({ username: user.username, email: user.email }))).status).toBe(201);
    });
  });

  describe('user administration', () => {
    it('lists users with listing counts, toggles verified, and protects admins', async () => {
      const user = await signUp();
      const list = await get(api('/admin/users?limit=1000'), bearer(adminToken));
      expect(list.status).toBe(200);
      const row = list.body.users.find((u: { id: string }) => u.id === user.id);
      expect(row).toMatchObject({ username: user.username, role: 'regular', verified: false, status: 'active', listingCount: 0, activeListings: 0, soldListings: 0 });
      expect(list.body.total).toBeGreaterThanOrEqual(list.body.users.length);
      const admin = list.body.users.find((u: { role: string }) => u.role === 'admin');

      const verified = await call('PATCH', api(`/admin/users/${user.id}`), { verified: true }, bearer(adminToken));
      expect(verified.body.verified).toBe(true);
      expect((await call('PATCH', api(`/admin/users/${user.id}`), { verified: true, status: 'active' }, bearer(adminToken))).status).toBe(422);
      expect((await call('PATCH', api('/admin/users/not-a-uuid'), { verified: true }, bearer(adminToken))).status).toBe(422);
      expect((await call('DELETE', api(`/admin/users/${admin.id}`), undefined, bearer(adminToken))).status).toBe(403);
      expect((await call('PATCH', api(`/admin/users/${admin.id}`), { status: 'suspended' }, bearer(adminToken))).status).toBe(403);
      expect((await get(api('/admin/users'), bearer(user.token))).status).toBe(403);
      expect((await get(api('/admin/users'))).status).toBe(401);

      const stats = await get(api('/admin/stats'), bearer(adminToken));
      expect(stats.body).toEqual({ total_users: list.body.total, total_listings: 0, active_listings: 0, total_transactions: 0, dead_letters: 0 });
    });
  });

  describe('impersonation', () => {
    it('acts as the user, may not reach admin routes or change the password, and is audited', async () => {
      const user = await signUp();
      const started = await post(api(`/admin/impersonate/${user.id}`), undefined, bearer(adminToken));
      expect(started.status).toBe(200);
      expect(started.body.target_user.id).toBe(user.id);
      expect(started.body.original_admin.email).toBe(ADMIN.email);
      const token = started.body.impersonation_token as string;
      const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
      expect(claims.exp - claims.iat).toBe(3600);

      expect((await get(api('/auth/me'), bearer(token))).body.id).toBe(user.id);
      const adminRoute = await get(api('/admin/users'), bearer(token));
      expect(adminRoute.status).toBe(403);
      const password = await call('PATCH', api('/user/password'), { current_password: user.password, new_password: 'hijacked pass phrase' }, bearer(token));
      expect(password.status).toBe(403);
      // Changing the email would let the impersonator reset the password later.
      const email = await call('PATCH', api('/user/profile'), { name: 'Taken Over', email: `thief_${user.email}` }, bearer(token));
      expect(email.status).toBe(403);
      expect(email.body.detail).toBe('The email cannot be changed while impersonating a user');
      expect((await call('PATCH', api('/user/profile'), { name: 'Helped By Support', email: user.email }, bearer(token))).status).toBe(200);
      expect((await post(api('/admin/stop-impersonation'), undefined, bearer(token))).status).toBe(200);
      // Stopping ends the impersonation's session: its token stops working at once (ADR 0030).
      expect((await get(api('/auth/me'), bearer(token))).status).toBe(401);

      const entries = await eventually(async () => {
        const { body } = await get(api('/admin/audit-log'), bearer(adminToken));
        const mine = body.entries.filter((e: { target_id: string }) => e.target_id === user.id);
        expect(mine.map((e: { action: string }) => e.action)).toEqual(
          expect.arrayContaining(['impersonation.start', 'request', 'impersonation.stop']),
        );
        return mine;
      });
      const routes = entries.map((e: { method: string; route: string }) => `${e.method} ${e.route}`);
      // The admin route it was refused is in the log too: impersonated requests are recorded before any guard decides.
      expect(routes).toEqual(
        expect.arrayContaining(['GET /api/auth/me', 'GET /api/admin/users', 'PATCH /api/user/password', 'PATCH /api/user/profile', 'POST /api/admin/stop-impersonation']),
      );
      for (const entry of entries) expect(entry.admin_id).toBe(started.body.original_admin.id);

      const admins = (await get(api('/admin/users'), bearer(adminToken))).body.users.filter((u: { role: string }) => u.role === 'admin');
      expect((await post(api(`/admin/impersonate/${admins[0].id}`), undefined, bearer(adminToken))).status).toBeGreaterThanOrEqual(400);
      expect((await post(api(`/admin/impersonate/${user.id}`), undefined, bearer(user.token))).status).toBe(403);
      expect((await post(api('/admin/stop-impersonation'), undefined, bearer(user.token))).status).toBe(400);
    });

    it("ends when the admin's session that started it ends (ADR 0065), and leaves the admin's other sessions alone", async () => {
      const user = await signUp();
      // A second login of the admin: its logout must end the impersonation it started, and nothing else.
      const session = (await postCounted(api('/auth/login'), { login: ADMIN.email, password: ADMIN.password })).body.access_token as string;
      const fromSession = (await post(api(`/admin/impersonate/${user.id}`), undefined, bearer(session))).body.impersonation_token as string;
      const fromOther = (await post(api(`/admin/impersonate/${user.id}`), undefined, bearer(adminToken))).body.impersonation_token as string;
      expect((await get(api('/auth/me'), bearer(fromSession))).status).toBe(200);

      expect((await post(api('/auth/logout'), undefined, bearer(session))).status).toBe(200);
      expect((await get(api('/auth/me'), bearer(fromSession))).status).toBe(401);
      expect((await get(api('/auth/me'), bearer(fromOther))).body.id).toBe(user.id);
      expect((await get(api('/auth/me'), bearer(adminToken))).status).toBe(200);
      // An ended session cannot start one either.
      expect((await post(api(`/admin/impersonate/${user.id}`), undefined, bearer(session))).status).toBe(401);
      expect((await post(api('/admin/stop-impersonation'), undefined, bearer(fromOther))).status).toBe(200);
    });

    it('records a logout under impersonation as the stop it is', async () => {
      const user = await signUp();
      const token = (await post(api(`/admin/impersonate/${user.id}`), undefined, bearer(adminToken))).body.impersonation_token as string;
      expect((await post(api('/auth/logout'), undefined, bearer(token))).status).toBe(200);
      expect((await get(api('/auth/me'), bearer(token))).status).toBe(401);
      await eventually(async () => {
        const { body } = await get(api('/admin/audit-log'), bearer(adminToken));
        const stops = body.entries.filter((e: { target_id: string; action: string }) => e.target_id === user.id && e.action === 'impersonation.stop');
        expect(stops.map((e: { method: string; route: string }) => `${e.method} ${e.route}`)).toEqual(['POST /api/auth/logout']);
      });
    });
  });
});

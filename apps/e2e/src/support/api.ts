import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListingDto } from '@market/contracts';
import { baseUrl } from './browser';

/** Calls the marketplace API directly (for setup steps a journey is not about). */
export async function apiCall<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as T };
}

/** An admin token for the e2e admin account. */
export async function adminToken(): Promise<string> {
  const { body } = await apiCall<{ access_token: string }>('POST', '/auth/login', {
    login: process.env.E2E_ADMIN_EMAIL,
    password: process.env.E2E_ADMIN_PASSWORD,
  });
  return body.access_token;
}

/** The latest one-time link to a page in the emails the log transport wrote for an address, or null. */
function linkInMailLog(to: string, page: string): string | null {
  const dir = process.env.E2E_LOG_DIR;
  if (!dir) throw new Error('E2E_LOG_DIR is not set: run through jest.e2e.config.js');
  const file = join(dir, 'notifications-service.log');
  if (!existsSync(file)) return null;
  let link: string | null = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"Email (no SMTP configured)"') || !line.endsWith('}')) continue;
    const entry = JSON.parse(line) as { to?: string; text?: string };
    const found = entry.to === to ? new RegExp(`https?://\\S+${page}\\?token=\\S+`).exec(entry.text ?? '')?.[0] : undefined;
    if (found) link = found;
  }
  return link;
}

// How long a journey waits for an email: one failed send attempt is retried after 30 s (email.queue.ts), so a mailbox
// that stays empty for longer than that is a failure worth reporting, not a slow machine.
const MAIL_WAIT_MS = 45_000;

/** The warnings and errors the services that send mail logged lately, for a failure message. */
function mailProblems(): string {
  const dir = process.env.E2E_LOG_DIR ?? '';
  const since = Date.now() - 2 * MAIL_WAIT_MS;
  const lines: string[] = [];
  for (const name of ['auth-service', 'notifications-service']) {
    const file = join(dir, `${name}.log`);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const entry = (() => {
        try {
          return JSON.parse(line) as { level?: string; time?: string };
        } catch {
          return null;
        }
      })();
      if (entry && ['warn', 'error', 'fatal'].includes(entry.level ?? '') && Date.parse(entry.time ?? '') >= since) lines.push(`${name}: ${line.slice(0, 400)}`);
    }
  }
  return lines.length ? lines.slice(-20).join('\n') : 'no warning or error logged by auth-service or notifications-service';
}

/**
 * Waits for the latest email of a kind to an address and returns the link in it; with `after`, for a newer link than
 * that one (an email sent again). With no SMTP server the log is the mailbox, and outside production it holds the
 * whole link; the admin's email view never shows a usable one (ADR 0031).
 */
export async function linkInEmail(to: string, kind: 'verify_email' | 'reset_password' | 'undo_email_change', after?: string): Promise<string> {
  const page = { verify_email: '/verify-email', reset_password: '/reset-password', undo_email_change: '/undo-email-change' }[kind];
  const deadline = Date.now() + MAIL_WAIT_MS;
  while (Date.now() < deadline) {
    const link = linkInMailLog(to, page);
    if (link && link !== after) return link;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No ${after ? 'new ' : ''}${kind} email to ${to} within ${MAIL_WAIT_MS / 1000} s; lately logged:\n${mailProblems()}`);
}

/** A registered, logged-in account made through the API. */
export interface ApiAccount {
  username: string;
  email: string;
  password: string;
  token: string;
}

/**
 * Verifies an address the way its owner does (ADR 0037): the link in the latest verification email (the mail log is the
 * mailbox here) is sent to POST /api/auth/verify-email.
 */
export async function verifyEmailFromMail(email: string): Promise<void> {
  const token = new URL(await linkInEmail(email, 'verify_email')).searchParams.get('token') ?? '';
  const verified = await apiCall('POST', `/auth/verify-email?token=${encodeURIComponent(token)}`);
  if (verified.status !== 200) throw new Error(`verify ${email}: ${verified.status} ${JSON.stringify(verified.body)}`);
}

/**
 * Registers an account through the API, verifies its email from the verification email (bidding, buying and selling
 * need it, ADR 0037; `verified: false` skips it) and logs it in; usernames are prefix_<letters> (unique per call).
 */
export async function registerAccount(prefix: string, options: { verified?: boolean } = {}): Promise<ApiAccount> {
  const tag = Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join('');
  const username = `${prefix}_${tag}`;
  const account = { username, email: `${username}@example.com`, password: `${prefix}-pass-${tag}` };
  const registered = await apiCall('POST', '/auth/register', { ...account, age_confirmed: true });
  if (registered.status !== 201) throw new Error(`register ${username}: ${registered.status} ${JSON.stringify(registered.body)}`);
  if (options.verified ?? true) await verifyEmailFromMail(account.email);
  const login = await apiCall<{ access_token: string }>('POST', '/auth/login', { login: username, password: account.password });
  return { ...account, token: login.body.access_token };
}

const LISTING_DEFAULTS: Record<string, string> = {
  title: 'A steady niche website for sale',
  description: 'A steady niche site with tested content, loyal readers and a weekly newsletter.',
  category: 'Blog',
  website_url: 'https://journey-site.example.com',
  monthly_revenue: '1200',
  annual_revenue: '14400',
  monthly_traffic: '30000',
  monthly_expenses: '200',
  profit_margin: '83',
  business_age_months: '26',
  monetization_methods: 'AdSense',
  listing_type: 'auction',
  auction_type: 'auto',
  starting_price: '8000',
  duration_days: '7',
};

/** POST /api/listings as the sell wizard sends it (multipart), with screenshots; returns the new listing. */
export async function createListingViaApi(token: string, fields: Record<string, string> = {}, screenshots: Buffer[] = []): Promise<ListingDto> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...LISTING_DEFAULTS, ...fields })) form.append(name, value);
  screenshots.forEach((data, i) => form.append('screenshots', new Blob([new Uint8Array(data)], { type: 'image/png' }), `shot-${i}.png`));
  const response = await fetch(`${baseUrl()}/api/listings`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`create listing: ${response.status} ${JSON.stringify(body)}`);
  return body as ListingDto;
}

/** The admin approves a listing (PATCH /api/admin/listings/{id} {status: 'active'}). */
export async function approveListing(id: string): Promise<void> {
  const approved = await apiCall('PATCH', `/admin/listings/${id}`, { status: 'active' }, await adminToken());
  if (approved.status !== 200) throw new Error(`approve ${id}: ${approved.status} ${JSON.stringify(approved.body)}`);
}

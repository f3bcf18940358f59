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

/** Waits for the latest email of a kind to an address and returns the link in it, as an admin reads the mailbox. */
export async function linkInEmail(to: string, kind: 'verify_email' | 'reset_password'): Promise<string> {
  const token = await adminToken();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { body } = await apiCall<{ emails: Array<{ to_address: string; kind: string; text_body: string }> }>('GET', '/admin/emails', undefined, token);
    const email = body.emails.find((e) => e.to_address === to && e.kind === kind);
    const link = email && /https?:\/\/\S+token=\S+/.exec(email.text_body)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No ${kind} email to ${to}`);
}

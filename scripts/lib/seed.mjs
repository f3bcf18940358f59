// Seeds demo accounts through the public API, so they pass every rule a real sign-up does.
export const DEMO_USERS = [
  { username: 'demo_seller', email: 'seller@example.com', password: 'market-demo-2026' },
  { username: 'demo_buyer', email: 'buyer@example.com', password: 'market-demo-2026' },
];

async function postJson(url, body, token) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/**
 * Registers the demo users; ones that already exist (409) are left as they are. With the admin account, each demo email
 * is confirmed by the admin's act (PATCH /api/admin/users/{id}): demo addresses receive no mail, and bidding and selling
 * need a verified email (ADR 0037). A demo user whose password was changed is left unconfirmed.
 */
export async function seedDemo(baseUrl, admin = null) {
  for (const user of DEMO_USERS) {
    const response = await postJson(`${baseUrl}/api/auth/register`, { ...user, age_confirmed: true });
    // Registering again on every start counts against this address's sign-up limit: a few restarts within the hour
    // reach it. The accounts exist from the earlier starts then, so a limit only skips this step (not the start).
    if (response.status === 429) {
      console.warn(`Demo accounts not registered again this time (sign-up limit for this address; they exist from an earlier start)`);
      break;
    }
    if (!response.ok && response.status !== 409) {
      throw new Error(`Seeding ${user.username} failed: ${response.status} ${await response.text()}`);
    }
  }
  if (!admin) return DEMO_USERS;
  const adminLogin = await postJson(`${baseUrl}/api/auth/login`, { login: admin.email, password: admin.password });
  if (!adminLogin.ok) {
    throw new Error(
      `Admin login failed (${adminLogin.status}): demo emails are not confirmed. If another checkout already used this database, ` +
        'its admin has that checkout\'s password: set ADMIN_PASSWORD to it, or DATABASE_URL to another database',
    );
  }
  const adminToken = (await adminLogin.json()).access_token;
  for (const user of DEMO_USERS) {
    const login = await postJson(`${baseUrl}/api/auth/login`, { login: user.email, password: user.password });
    if (!login.ok) continue;
    const { user: account } = await login.json();
    if (account.email_verified) continue;
    const confirmed = await fetch(`${baseUrl}/api/admin/users/${account.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ email_verified: true }),
    });
    if (!confirmed.ok) throw new Error(`Confirming ${user.username}'s email failed: ${confirmed.status} ${await confirmed.text()}`);
  }
  return DEMO_USERS;
}

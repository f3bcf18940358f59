// Seeds demo accounts through the public API, so they pass every rule a real sign-up does.
export const DEMO_USERS = [
  { username: 'demo_seller', email: 'seller@example.com', password: 'market-demo-2026' },
  { username: 'demo_buyer', email: 'buyer@example.com', password: 'market-demo-2026' },
];

/** Registers the demo users; ones that already exist (409) are left as they are. */
export async function seedDemo(baseUrl) {
  for (const user of DEMO_USERS) {
    const response = await fetch(`${baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...user, age_confirmed: true }),
    });
    if (!response.ok && response.status !== 409) {
      throw new Error(`Seeding ${user.username} failed: ${response.status} ${await response.text()}`);
    }
  }
  return DEMO_USERS;
}

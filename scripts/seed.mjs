// npm run seed: fills a running marketplace with demo sellers and listings through its HTTP API (DESIGN §2).
// SEED_URL (default http://localhost:$PORT, 3000) picks the system; ADMIN_EMAIL / ADMIN_PASSWORD default to what
// npm start uses (admin@example.com and data/admin-password). Running it again adds nothing twice.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './lib/system.mjs';
import { formatSeedSummary, seedMarket } from './lib/seed-market.mjs';

const baseUrl = (process.env.SEED_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
const passwordFile = join(resolve(ROOT, process.env.DATA_DIR ?? 'data'), 'admin-password');
const admin = {
  email: process.env.ADMIN_EMAIL ?? 'admin@example.com',
  password: process.env.ADMIN_PASSWORD ?? (existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : ''),
};

try {
  console.log(`Seeding demo listings into ${baseUrl} ...`);
  const started = Date.now();
  const summary = await seedMarket({ baseUrl, admin, log: (line) => console.log(line) });
  for (const line of formatSeedSummary(summary)) console.log(line);
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Sellers log in with password market-demo-2026.`);
} catch (error) {
  console.error(`Seeding failed: ${error.message}`);
  process.exit(1);
}

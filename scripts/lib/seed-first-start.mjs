// The first `npm start` fills the market with demo listings; a marker under DATA_DIR keeps later starts quick.
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatSeedSummary, seedMarket } from './seed-market.mjs';
import { ROOT } from './system.mjs';

/** Seeds the demo listings once per data directory; a failure is reported but never stops the system. */
export async function seedFirstStart(system, log, env = process.env) {
  const marker = join(resolve(ROOT, env.DATA_DIR ?? 'data'), 'seeded-listings');
  if (existsSync(marker)) return;
  log('First start: adding demo listings (npm run seed)...');
  try {
    const summary = await seedMarket({ baseUrl: system.url, admin: system.admin });
    for (const line of formatSeedSummary(summary)) log(`  ${line}`);
    writeFileSync(marker, `${JSON.stringify({ seeded_at: new Date().toISOString(), ...summary })}\n`);
  } catch (error) {
    log(`  Demo listings were not added: ${error.message}. Run \`npm run seed\` once the system is up.`);
  }
}

// Starts the whole marketplace once for every journey: real processes, a fresh database, isolated events.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isolatedSystemEnv, ROOT, startSystem } from '../../../../scripts/lib/system.mjs';

export default async function globalSetup() {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  writeFileSync(join(ROOT, 'tmp', 'e2e-billing-clock.json'), JSON.stringify({ offset_ms: 0 }));
  const ownershipDnsPort = Number(process.env.E2E_PORT ?? 3900) + 53;
  const env = {
    ...isolatedSystemEnv('e2e', Number(process.env.E2E_PORT ?? 3900)),
    ADMIN_EMAIL: 'admin@e2e.example.com',
    ADMIN_PASSWORD: 'e2e-admin-password',
    // Never used to send (no SMTP_HOST: emails go to the log), only so the teardown can prove it never reaches a log.
    SMTP_PASSWORD: 'e2e-smtp-credential-7Kq2',
    // Journeys register and log in more often than one person would.
    RATE_LIMIT_SCALE: '20',
    // Journeys move an auction's end close in the database; each bidding replica's sweep then closes it within a second.
    AUCTION_SWEEP_MS: '1000',
    // Journeys move an invoice's pay-by moment back in the database; billing's sweep then lapses it within a second (ADR 0043).
    PAYMENT_WINDOW_SWEEP_MS: '1000',
    // Billing's test clock (ADR 0063): a journey moves it past an inspection period; the escrow sweep then runs each second.
    BILLING_CLOCK_FILE: join(ROOT, 'tmp', 'e2e-billing-clock.json'),
    PAYOUT_SWEEP_MS: '1000',
    // A saved search's alerts go out a day apart in production (ADR 0074); two seconds here, so a journey sees its email.
    SEARCH_ALERT_INTERVAL_MS: '2000',
    // Journeys move a watched auction's end near in the database; the ending-soon sweep then reminds within a second.
    WATCH_REMINDER_SWEEP_MS: '1000',
    // A new listing's title words are suggested for misspelled searches within a second (ADR 0080).
    SEARCH_VOCABULARY_MAX_AGE_MS: '1000',
    // Every answer over NATS is checked against its contract (ADR 0028).
    CHECK_CONTRACTS: 'true',
    // Ownership proofs (ADR 0040) look up journeys' domains on the DNS server the ownership journey runs on this port,
    // and their well-known files on 127.0.0.1 over plain HTTP: test-only settings, refused in production.
    DOMAIN_PROOF_DNS_SERVERS: `127.0.0.1:${ownershipDnsPort}`,
    DOMAIN_PROOF_HTTP_SCHEME: 'http',
    DOMAIN_PROOF_HTTP_PORT: String(ownershipDnsPort + 1),
    DOMAIN_PROOF_ALLOW_ADDRESSES: '127.0.0.1',
  };
  const system = await startSystem({ env, quiet: true, log: () => {} });
  globalThis.__E2E_SYSTEM__ = { system, env };
  process.env.E2E_BASE_URL = system.url;
  process.env.E2E_ADMIN_EMAIL = env.ADMIN_EMAIL;
  process.env.E2E_ADMIN_PASSWORD = env.ADMIN_PASSWORD;
  process.env.E2E_DATABASE_URL = env.DATABASE_URL;
  process.env.E2E_OWNERSHIP_DNS_PORT = String(ownershipDnsPort);
  process.env.E2E_BILLING_CLOCK_FILE = env.BILLING_CLOCK_FILE;
  // Journeys read one-time links where a developer without SMTP does: the notifications log (ADR 0031).
  process.env.E2E_LOG_DIR = join(resolve(ROOT, env.DATA_DIR), 'logs');
}

// npm run secrets: writes .env with a strong random value for every secret docker compose needs (ADR 0031).
// `--force` replaces an existing .env; `--out <file>` writes elsewhere (CI checks the compose file with one).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_ENTRIES, writeEnvFile } from './lib/secrets.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const args = process.argv.slice(2);
const force = args.includes('--force');
const outAt = args.indexOf('--out');
const path = resolve(ROOT, outAt >= 0 ? (args[outAt + 1] ?? '') : '.env');
const unknown = args.filter((arg, i) => arg !== '--force' && arg !== '--out' && !(outAt >= 0 && i === outAt + 1));
if (unknown.length > 0 || (outAt >= 0 && !args[outAt + 1])) {
  console.error('Usage: npm run secrets [-- --force] [-- --out <file>]');
  process.exit(2);
}

if (writeEnvFile(path, { force }) === 'exists') {
  console.error(`${path} exists and was left as it is; pass --force to replace it (its secrets are lost, and PostgreSQL keeps the password it was first started with).`);
  process.exit(1);
}
console.log(`Wrote ${path} (mode 0600): ${ENV_ENTRIES.map((entry) => entry.name).join(', ')}. The admin password is its ADMIN_PASSWORD.`);

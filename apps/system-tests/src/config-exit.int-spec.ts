import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const built = (app: string) => join(__dirname, '..', '..', app, 'dist', 'main.js');

describe('configuration is checked at start', () => {
  it.each([
    ['gateway', { PORT: 'eighty', JWT_SECRET: 'x'.repeat(40) }, /^Invalid configuration: PORT: /],
    ['gateway', {}, /^Invalid configuration: JWT_SECRET: is required but not set$/],
    ['auth-service', { JWT_SECRET: 'x'.repeat(40), DATABASE_URL: 'mysql://db/x' }, /^Invalid configuration: DATABASE_URL: /],
    ['notifications-service', { SMTP_PORT: '-1' }, /^Invalid configuration: SMTP_PORT: /],
  ])('%s with a bad value stops with one line naming the variable', (app, env, line) => {
    const main = built(app);
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run build)`);
    const result = spawnSync(process.execPath, [main], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(result.stdout).toBe('');
  });
});

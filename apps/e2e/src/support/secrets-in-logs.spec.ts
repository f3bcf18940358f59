import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKeys } from '@market/server-kit';
import { leakedSecrets, secretsOf } from './secrets-in-logs.mjs';

describe('the e2e log scan', () => {
  const env = { ...generateSigningKeys(), ADMIN_PASSWORD: 'e2e-admin-password-2026' };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-logs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the admin password or the private key in any log, and nothing in clean logs', () => {
    writeFileSync(join(dir, 'gateway.log'), '{"msg":"started"}\n');
    expect(leakedSecrets(dir, secretsOf(env))).toEqual([]);
    writeFileSync(join(dir, 'auth-service.log'), `{"msg":"config ${env.ADMIN_PASSWORD}"}\n`);
    const line = env.JWT_PRIVATE_KEY.split('\n')[2];
    writeFileSync(join(dir, 'billing-service.log'), `{"msg":"oops ${line}"}\n`);
    expect(leakedSecrets(dir, secretsOf(env)).sort()).toEqual(['auth-service.log: ADMIN_PASSWORD', 'billing-service.log: JWT_PRIVATE_KEY']);
  });
});

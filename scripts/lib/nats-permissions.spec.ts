import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as contracts from '../../libs/contracts/src';
import { RPC, SERVICE_CALLS, SERVICE_NAMES, type RpcDefinition, type ServiceName } from '../../libs/contracts/src';
// @ts-expect-error plain ESM script without type declarations
import { natsConfigText, natsPassword, natsPasswordVariable, natsSpaces, natsUsers } from './nats-permissions.mjs';
// @ts-expect-error plain ESM script without type declarations
import { ENV_ENTRIES } from './secrets.mjs';

const ROOT = join(__dirname, '..', '..');
const DEFAULTS = natsSpaces({});

/** The TypeScript sources of a project, tests and test helpers left out. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.(int-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The request subjects a source calls with `rpc.call(RPC.<area>.<name>, …)`. */
function directCalls(text: string): string[] {
  const rpc = RPC as unknown as Record<string, Record<string, RpcDefinition>>;
  return [...text.matchAll(/\.call\(\s*RPC\.(\w+)\.(\w+)/g)].map(([, area, name]) => rpc[area][name].subject);
}

/** What a service's code calls: its own calls, public profiles and settings through server-kit, and the token check. */
function callsInCode(service: ServiceName): string[] {
  const called = new Set<string>([RPC.auth.sessionState.subject]);
  for (const file of sources(join(ROOT, 'apps', service, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const subject of directCalls(text)) called.add(subject);
    if (/\bpublicProfiles\(\s*this\.rpc\b/.test(text)) called.add(RPC.auth.publicProfiles.subject);
    if (/\bSettings(Module|Client)\b/.test(text)) called.add(RPC.admin.effectiveSettings.subject);
  }
  return [...called].sort();
}

describe('NATS users and their permissions (ADR 0035)', () => {
  it("lists in SERVICE_CALLS exactly what each service's code calls", () => {
    for (const service of SERVICE_NAMES) {
      const declared = [RPC.auth.sessionState, ...SERVICE_CALLS[service]].map((definition) => definition.subject).sort();
      expect({ service, calls: callsInCode(service) }).toEqual({ service, calls: declared });
    }
    // server-kit calls on the services' behalf only these: the token check, settings and public profiles.
    const kit = new Set(sources(join(ROOT, 'libs', 'server-kit', 'src')).flatMap((file) => directCalls(readFileSync(file, 'utf8'))));
    expect([...kit].sort()).toEqual([RPC.admin.effectiveSettings.subject, RPC.auth.publicProfiles.subject, RPC.auth.sessionState.subject].sort());
  });

  it('writes a user per process and the operator, with passwords read from the environment or given', () => {
    const users = natsUsers(contracts) as string[];
    expect(users).toEqual(['gateway', ...SERVICE_NAMES, 'operator']);
    const fromEnv = natsConfigText(contracts, DEFAULTS) as string;
    for (const user of users) expect(fromEnv).toContain(`user: "${user}"\n      password: $${natsPasswordVariable(user)}\n`);
    expect(natsPasswordVariable('auth-service')).toBe('NATS_AUTH_PASSWORD');
    const passwords = Object.fromEntries(users.map((user) => [user, natsPassword() as string]));
    const literal = natsConfigText(contracts, DEFAULTS, passwords) as string;
    for (const user of users) expect(literal).toContain(`password: "${passwords[user]}"`);
    expect(() => natsConfigText(contracts, DEFAULTS, { ...passwords, gateway: 'has "quotes"' })).toThrow(/gateway/);
    // Random passwords start with a letter, so nats-server never reads one as a number.
    for (let i = 0; i < 50; i += 1) expect(natsPassword()).toMatch(/^[A-Za-z][A-Za-z0-9_-]{31,}$/);
  });

  it('makes a config nats-server accepts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nats-config-'));
    try {
      const path = join(dir, 'auth.conf');
      writeFileSync(path, natsConfigText(contracts, { subjectPrefix: 'staging.', eventsPrefix: 'events', stream: 'EVENTS' }));
      const environment = Object.fromEntries((natsUsers(contracts) as string[]).map((user) => [natsPasswordVariable(user), natsPassword()]));
      const checked = spawnSync('nats-server', ['-c', path, '-t'], { env: { ...process.env, ...environment }, encoding: 'utf8' });
      expect({ status: checked.status, said: `${checked.stdout}${checked.stderr}`.trim() }).toEqual({ status: 0, said: expect.stringMatching(/is valid/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps compose's deploy/nats/auth.conf what `npm run nats-config` prints (else: npm run nats-config -- --out deploy/nats/auth.conf)", () => {
    expect(readFileSync(join(ROOT, 'deploy', 'nats', 'auth.conf'), 'utf8')).toBe(natsConfigText(contracts, DEFAULTS));
  });

  it("keeps the Kubernetes dev overlay's copy equal to it (kustomize reads files under the overlay only; else: cp deploy/nats/auth.conf k8s/overlays/dev/nats/)", () => {
    expect(readFileSync(join(ROOT, 'k8s', 'overlays', 'dev', 'nats', 'auth.conf'), 'utf8')).toBe(readFileSync(join(ROOT, 'deploy', 'nats', 'auth.conf'), 'utf8'));
  });

  it('has `npm run secrets` make a password for every NATS user', () => {
    const names = (ENV_ENTRIES as Array<{ name: string }>).map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining((natsUsers(contracts) as string[]).map(natsPasswordVariable)));
  });
});

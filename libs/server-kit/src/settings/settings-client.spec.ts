import type { NatsConnection } from 'nats';
import { DEFAULT_SETTINGS, RPC, type PlatformSettings, type RpcDefinition } from '@market/contracts';
import type { RpcClient } from '../rpc/rpc-client';
import { SettingsClient } from './settings-client';

/**
 * The admin service as the client sees it. By default each question waits until the test answers it (`pending`);
 * `answer` replaces that, e.g. to fail like an unreachable service.
 */
function adminService(answer?: () => Promise<PlatformSettings>) {
  const pending: Array<(value: PlatformSettings) => void> = [];
  const ask = answer ?? (() => new Promise<PlatformSettings>((resolve) => pending.push(resolve)));
  const rpc = {
    connect: async () => undefined,
    close: async () => undefined,
    call: (definition: RpcDefinition) => {
      if (definition !== RPC.admin.effectiveSettings) throw new Error(`unexpected ${definition.subject}`);
      return ask();
    },
  } as unknown as RpcClient;
  let announce = () => undefined as void;
  const nc = {
    subscribe: (_subject: string, options: { callback: () => void }) => {
      announce = options.callback;
      return { unsubscribe: () => undefined };
    },
  } as unknown as NatsConnection;
  return { rpc, nc, pending, announce: () => announce() };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('SettingsClient', () => {
  it('serves from its cache until a change is announced', async () => {
    const admin = adminService();
    const client = new SettingsClient(admin.rpc, admin.nc, '');
    await client.start();
    const first = client.get();
    await flush();
    admin.pending.shift()!({ ...DEFAULT_SETTINGS, auto_approve: false });
    expect((await first).auto_approve).toBe(false);
    expect((await client.get()).auto_approve).toBe(false);
    expect(admin.pending).toHaveLength(0);

    admin.announce();
    const next = client.get();
    await flush();
    admin.pending.shift()!({ ...DEFAULT_SETTINGS, auto_approve: true });
    expect((await next).auto_approve).toBe(true);
  });

  it('does not keep an answer that was on its way when a change was announced', async () => {
    const admin = adminService();
    const client = new SettingsClient(admin.rpc, admin.nc, '');
    await client.start();
    const racing = client.get();
    await flush();
    // The change lands while the old settings are still in flight.
    admin.announce();
    admin.pending.shift()!({ ...DEFAULT_SETTINGS, allow_registration: true });
    expect((await racing).allow_registration).toBe(true);

    const after = client.get();
    await flush();
    expect(admin.pending).toHaveLength(1);
    admin.pending.shift()!({ ...DEFAULT_SETTINGS, allow_registration: false });
    expect((await after).allow_registration).toBe(false);
  });
});

describe('SettingsClient when the admin service cannot answer', () => {
  // Answers with each of `answers` once, then fails as an unreachable service does.
  const failingAfter = (answers: PlatformSettings[]) => {
    const admin = adminService(async () => {
      const next = answers.shift();
      if (!next) throw new Error('no responders');
      return next;
    });
    return { client: new SettingsClient(admin.rpc, admin.nc, ''), announce: admin.announce };
  };

  it('falls back to the defaults, unless the caller requires real settings', async () => {
    const { client } = failingAfter([]);
    expect(await client.get()).toEqual(DEFAULT_SETTINGS);
    await expect(client.get({ requireKnown: true })).rejects.toThrow('Settings unavailable and none known yet');
  });

  it('uses the last known settings either way once it has read them', async () => {
    const { client, announce } = failingAfter([{ ...DEFAULT_SETTINGS, smtp_host: 'mail.example.com' }]);
    await client.start();
    expect((await client.get()).smtp_host).toBe('mail.example.com');
    // A change drops the cache; the admin service is gone when the client asks again.
    announce();
    expect((await client.get({ requireKnown: true })).smtp_host).toBe('mail.example.com');
  });
});

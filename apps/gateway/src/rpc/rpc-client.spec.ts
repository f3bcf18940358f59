import { RPC, type RpcDefinition } from '@market/contracts';
import { gatewayMayCall } from './rpc-client';

const all = Object.values(RPC).flatMap((group) => Object.values(group) as RpcDefinition[]);

describe('what the gateway may ask over NATS', () => {
  it('never a services-only subject (its token check has a client of its own)', () => {
    const allowedInternal = all.filter((definition) => definition.internal && gatewayMayCall(definition)).map((definition) => definition.subject);
    expect(allowedInternal).toEqual([]);
    expect(gatewayMayCall(RPC.auth.sessionState)).toBe(false);
    expect(gatewayMayCall(RPC.admin.effectiveSettings)).toBe(false);
    expect(gatewayMayCall(RPC.auth.contacts)).toBe(false);
  });

  it('every public subject', () => {
    expect(all.filter((definition) => !definition.internal).every(gatewayMayCall)).toBe(true);
  });
});

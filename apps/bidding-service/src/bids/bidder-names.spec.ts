import { RPC, type RpcDefinition } from '@market/contracts';
import type { ServiceRpc } from '@market/server-kit';
import { BidderNames } from './bidder-names';

/** An auth service that answers from a table and counts the questions. */
function authAnswering(names: Record<string, string>, up = { value: true }) {
  const asked: string[][] = [];
  const rpc = {
    call: async (definition: RpcDefinition, data: { user_ids: string[] }) => {
      if (definition !== RPC.auth.publicProfiles) throw new Error(`unexpected ${definition.subject}`);
      asked.push(data.user_ids);
      if (!up.value) throw new Error('no responders');
      return { profiles: data.user_ids.filter((id) => names[id]).map((id) => ({ id, username: names[id], name: null, verified: false })) };
    },
  } as unknown as ServiceRpc;
  return { rpc, asked, up };
}

describe('BidderNames', () => {
  it('asks once per bidder within five minutes, then again', async () => {
    const auth = authAnswering({ u1: 'ann' });
    const names = new BidderNames(auth.rpc);
    expect(await names.of('u1', 0)).toBe('ann');
    expect(await names.of('u1', 299_999)).toBe('ann');
    expect(auth.asked).toHaveLength(1);
    expect(await names.of('u1', 300_000)).toBe('ann');
    expect(auth.asked).toHaveLength(2);
  });

  it("says 'Bidder' when the auth service cannot answer, and does not remember that", async () => {
    const auth = authAnswering({ u1: 'ann' }, { value: false });
    const names = new BidderNames(auth.rpc);
    expect(await names.of('u1', 0)).toBe('Bidder');
    auth.up.value = true;
    expect(await names.of('u1', 1)).toBe('ann');
    expect(auth.asked).toHaveLength(2);
  });

  it("does not let a slow auth service hold a bid up: 'Bidder' after 300 ms", async () => {
    let answer!: (reply: unknown) => void;
    const rpc = { call: () => new Promise((done) => (answer = done)) } as unknown as ServiceRpc;
    // The name arrives only after the bid's answer; answering 'Bidder' means the lookup was not waited for.
    expect(await new BidderNames(rpc).of('u1')).toBe('Bidder');
    answer({ profiles: [{ id: 'u1', username: 'ann', name: null, verified: false }] });
  });
});

import { randomUUID } from 'node:crypto';
import { busIdentity, generateBusKeyPair, generateBusKeys } from '@market/server-kit';
import { UnsubscribeLinks } from './unsubscribe-links';

/** listings-service's identity from a key set, optionally listing a second (old or new) key for it, as in a rotation. */
function identity(keys = generateBusKeys(), extra?: string) {
  const listed = JSON.parse(keys.publicKeys) as Record<string, string[]>;
  if (extra) listed['listings-service'].push(extra);
  return { keys, links: new UnsubscribeLinks(busIdentity('listings-service', { BUS_SIGNING_KEY: keys.signingKeys['listings-service'], BUS_PUBLIC_KEYS: JSON.stringify(listed) }, 'test')) };
}

describe('signed unsubscribe links (ADR 0074)', () => {
  const id = randomUUID();

  it('reads back the search its token was made for, and the token fits the API path', () => {
    const { links } = identity();
    const token = links.tokenFor({ kind: 'saved_search', id });
    expect(token).toMatch(/^s-[0-9a-f-]{36}\.[A-Za-z0-9_-]{86}$/);
    expect(links.read(token)).toEqual({ kind: 'saved_search', id });
  });

  it("refuses a token signed by another key set, another search's signature, and anything malformed", () => {
    const { links } = identity();
    const { links: elsewhere } = identity();
    const token = links.tokenFor({ kind: 'saved_search', id });
    const signature = token.split('.')[1];
    expect(links.read(elsewhere.tokenFor({ kind: 'saved_search', id }))).toBeNull();
    expect(links.read(`s-${randomUUID()}.${signature}`)).toBeNull();
    for (const bad of ['', 'nodot', `s-${id}.`, `s-${id}.${'A'.repeat(86)}`, `s-not-a-uuid.${signature}`, `w-${id}.${signature}`, `x-${id}.${signature}`, `s-${id.toUpperCase()}.${signature}`]) {
      expect(links.read(bad)).toBeNull();
    }
  });

  it("reads a watcher's reminder link as theirs, and never one kind's signature as the other's", () => {
    const { links } = identity();
    const token = links.tokenFor({ kind: 'watch_reminders', user_id: id });
    expect(token.startsWith(`w-${id}.`)).toBe(true);
    expect(links.read(token)).toEqual({ kind: 'watch_reminders', user_id: id });
    expect(links.read(`s-${id}.${token.split('.')[1]}`)).toBeNull();
  });

  it('keeps old links working through a key rotation while the old key is still listed', () => {
    const before = generateBusKeys();
    const { links: old } = identity(before);
    const token = old.tokenFor({ kind: 'saved_search', id });
    // The new key signs now; BUS_PUBLIC_KEYS lists the new one and, for a while, the old one.
    const next = generateBusKeyPair();
    const rotated = { signingKeys: { ...before.signingKeys, 'listings-service': next.signingKey }, publicKeys: before.publicKeys };
    const { links: during } = identity(rotated, next.publicKey);
    expect(during.read(token)).toEqual({ kind: 'saved_search', id });
  });
});

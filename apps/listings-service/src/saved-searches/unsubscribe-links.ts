import { Injectable } from '@nestjs/common';
import { BusIdentity } from '@market/server-kit';

/** What an unsubscribe link can stop: one saved search's alerts, or a user's reminders before watched auctions end. */
export type UnsubscribeTarget = { kind: 'saved_search'; id: string } | { kind: 'watch_reminders'; user_id: string };

// The signed text names its purpose, so a signature made here can never pass for a bus message or another link's.
const PURPOSE = 'site-market unsubscribe v1\n';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function subjectOf(target: UnsubscribeTarget): string {
  return target.kind === 'saved_search' ? `s-${target.id}` : `w-${target.user_id}`;
}

/** A token's subject and signature; a token without a dot has neither. */
function splitToken(token: string): [string, string] {
  const dot = token.indexOf('.');
  return dot < 0 ? ['', ''] : [token.slice(0, dot), token.slice(dot + 1)];
}

function targetOf(subject: string): UnsubscribeTarget | null {
  const id = subject.slice(2);
  if (!UUID.test(id)) return null;
  if (subject.startsWith('s-')) return { kind: 'saved_search', id };
  if (subject.startsWith('w-')) return { kind: 'watch_reminders', user_id: id };
  return null;
}

/**
 * Signed unsubscribe links (ADR 0074): `<s|w>-<id>.<signature>`, signed with this service's bus key (D25) so no
 * secret is added, and checked against every key BUS_PUBLIC_KEYS lists for it. A saved search keeps the token it was
 * given, which vouches for it after its key is retired (SavedSearchService). No expiry: unsubscribing must keep
 * working (RFC 8058).
 */
@Injectable()
export class UnsubscribeLinks {
  constructor(private readonly bus: BusIdentity) {}

  /** The token of a link that stops `target`. */
  tokenFor(target: UnsubscribeTarget): string {
    const subject = subjectOf(target);
    return `${subject}.${this.bus.signer.sign(Buffer.from(PURPOSE + subject))}`;
  }

  /** What a token stops, or null when no key listed for this service signed it. */
  read(token: string): UnsubscribeTarget | null {
    const [subject, signature] = splitToken(token);
    const target = targetOf(subject);
    return target && this.bus.keys.verify('listings-service', Buffer.from(PURPOSE + subject), signature) ? target : null;
  }

  /** What a well-formed token says it stops, unchecked: only a stored copy of the whole token may vouch for it. */
  claimed(token: string): UnsubscribeTarget | null {
    return targetOf(splitToken(token)[0]);
  }
}

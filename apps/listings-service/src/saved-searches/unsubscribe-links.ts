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

function targetOf(subject: string): UnsubscribeTarget | null {
  const id = subject.slice(2);
  if (!UUID.test(id)) return null;
  if (subject.startsWith('s-')) return { kind: 'saved_search', id };
  if (subject.startsWith('w-')) return { kind: 'watch_reminders', user_id: id };
  return null;
}

/**
 * Signed unsubscribe links (ADR 0074): `<s|w>-<id>.<signature>`, signed with this service's bus key (D25) so no
 * secret is added, and checked against every key BUS_PUBLIC_KEYS lists for it, so links outlive a key rotation while
 * the old key is still listed. The link carries no expiry: unsubscribing must keep working (RFC 8058).
 */
@Injectable()
export class UnsubscribeLinks {
  constructor(private readonly bus: BusIdentity) {}

  /** The token of a link that stops `target`. */
  tokenFor(target: UnsubscribeTarget): string {
    const subject = subjectOf(target);
    return `${subject}.${this.bus.signer.sign(Buffer.from(PURPOSE + subject))}`;
  }

  /** What a token stops, or null when this service did not sign it. */
  read(token: string): UnsubscribeTarget | null {
    const dot = token.indexOf('.');
    if (dot < 0) return null;
    const subject = token.slice(0, dot);
    const target = targetOf(subject);
    if (!target) return null;
    return this.bus.keys.verify('listings-service', Buffer.from(PURPOSE + subject), token.slice(dot + 1)) ? target : null;
  }
}

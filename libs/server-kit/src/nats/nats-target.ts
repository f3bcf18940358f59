import { natsInboxPrefix } from '@market/contracts';

/** Where and as whom to connect: what nats.js and Nest's NATS transport take as options. */
export interface NatsTarget {
  servers: string[];
  user?: string;
  pass?: string;
  /** The user's own inboxes (`_INBOX.<user>`): its permissions let it read no other (ADR 0035). */
  inboxPrefix?: string;
  /** TLS for a `tls://` URL; `caFile` from its `ca` parameter, for a server whose certificate a private CA signed. */
  tls?: { caFile?: string };
}

/**
 * The servers, user and password named by NATS_URL (`nats://user:password@host:4222`, comma-separated for a cluster;
 * ADR 0035). nats.js ignores a URL's user info, so it becomes the `user`/`pass` options and the servers are given
 * without it: the password never reaches a server list, an error message or a log line. The first URL naming a user
 * names it for all. A `tls://` URL connects with TLS, checked against the CA file its `ca` parameter names, if any
 * (npm start's own NATS, ADR 0065), else the system's.
 */
export function natsTarget(url: string): NatsTarget {
  const target: NatsTarget = { servers: [] };
  for (const entry of url.split(',').map((part) => part.trim()).filter(Boolean)) {
    let parsed: URL;
    try {
      parsed = new URL(entry);
    } catch {
      target.servers.push(entry);
      continue;
    }
    if (parsed.protocol === 'tls:') {
      const caFile = parsed.searchParams.get('ca');
      target.tls = caFile ? { caFile } : (target.tls ?? {});
    }
    if (parsed.username && target.user === undefined) {
      target.user = decodeURIComponent(parsed.username);
      target.pass = decodeURIComponent(parsed.password);
      target.inboxPrefix = natsInboxPrefix(target.user);
    }
    target.servers.push(`${parsed.protocol}//${parsed.host}`);
  }
  return target;
}

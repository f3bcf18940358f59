import type { RpcDefinition } from './rpc';
import { RPC, SERVICE_NAMES, type ServiceName } from './subjects';
import { EVENT_FLOWS, EVENT_NAMES, EVENT_SCHEMAS, SECRET_PAYLOAD_KEYS, deadLetterSubject, type EventName, type EventParty } from './events';
import { SETTINGS_CHANGED_SUBJECT } from './admin/settings.schemas';
import { IDENTITY_CHANGED_SUBJECT } from './auth/account.schemas';

/**
 * The request subjects each service calls on other services, besides `auth.session_state` (every process's token check,
 * ADR 0030). A test compares it with the services' `rpc.call(RPC.…)` calls; the NATS permissions of each service's user
 * are computed from it (ADR 0035), so a call missing here is refused by the server.
 */
export const SERVICE_CALLS: { readonly [S in ServiceName]: readonly RpcDefinition[] } = {
  'auth-service': [RPC.admin.effectiveSettings],
  'listings-service': [RPC.admin.effectiveSettings, RPC.auth.publicProfiles, RPC.auth.profileByUsername, RPC.bidding.history],
  // A bid above the large-bid threshold asks billing whether the bidder has a verified card (ADR 0041).
  'bidding-service': [RPC.admin.effectiveSettings, RPC.auth.publicProfiles, RPC.listings.saleTerms, RPC.billing.paymentMethodStatus],
  'billing-service': [RPC.admin.effectiveSettings, RPC.auth.publicProfiles, RPC.bidding.buyNow],
  'admin-service': [RPC.auth.stats, RPC.auth.listUsers, RPC.auth.publicProfiles, RPC.listings.stats, RPC.listings.sellerCounts, RPC.billing.stats],
  'notifications-service': [RPC.admin.effectiveSettings, RPC.auth.contacts, RPC.auth.publicProfiles, RPC.listings.get],
};

/** The service that answers each area's subjects (`RPC.auth` → auth-service); its queue group has the same name. */
const AREA_OWNERS: { readonly [A in keyof typeof RPC]: ServiceName } = {
  auth: 'auth-service',
  listings: 'listings-service',
  bidding: 'bidding-service',
  billing: 'billing-service',
  admin: 'admin-service',
  notifications: 'notifications-service',
};

/** Who announces settings changes on core NATS (`settings.changed`): the owner of the settings. */
export const SETTINGS_PUBLISHER: ServiceName = 'admin-service';
/** Who announces account and session changes on core NATS (`identity.changed`, ADR 0057): the owner of accounts. */
export const IDENTITY_PUBLISHER: ServiceName = 'auth-service';
/** The one process that applies the configured events stream limits to an existing stream (ADR 0046). */
export const STREAM_LIMITS_OWNER: ServiceName = 'admin-service';

/** The subject spaces one deployment uses: NATS_SUBJECT_PREFIX, EVENTS_PREFIX and EVENTS_STREAM. */
export interface NatsSpaces {
  subjectPrefix: string;
  eventsPrefix: string;
  stream: string;
}

/**
 * What one NATS user may do, in nats-server's own syntax: a subscribe entry `"<subject> <queue>"` allows that subject
 * only in that queue group. `allowResponses` lets a service answer the requests it receives (each reply subject once)
 * without any right to publish to inboxes in general.
 */
export interface NatsPermissions {
  publish: string[];
  subscribe: string[];
  allowResponses: boolean;
}

/** The inbox prefix of a NATS user: its replies arrive under `_INBOX.<user>.`, the only inboxes it may read. */
export function natsInboxPrefix(user: string): string {
  return `_INBOX.${user}`;
}

/** The durable JetStream consumer of one service for one event (`notifications-service-bid_placed`). */
export function durableName(consumer: string, event: EventName): string {
  return `${consumer}-${event.replace(/\./g, '_')}`;
}

/** The request subjects a process calls: the gateway every public subject and its token check; a service SERVICE_CALLS. */
export function callsOf(party: EventParty): RpcDefinition[] {
  const all = Object.values(RPC).flatMap((area) => Object.values(area) as RpcDefinition[]);
  if (party === 'gateway') return [...all.filter((definition) => !definition.internal), RPC.auth.sessionState];
  return [RPC.auth.sessionState, ...SERVICE_CALLS[party]];
}

/** The areas of request subjects a service answers (their first token), e.g. `auth` for auth-service. */
export function areasOf(service: ServiceName): string[] {
  return (Object.keys(AREA_OWNERS) as Array<keyof typeof RPC>).filter((area) => AREA_OWNERS[area] === service);
}

const writes = (party: EventParty, name: EventName) => [EVENT_FLOWS[name].writtenBy].flat().includes(party);
const consumes = (party: EventParty, name: EventName) => EVENT_FLOWS[name].consumedBy.includes(party);
/** Events carrying a one-time token: their consumer deletes each message once handled (ADR 0008). */
const carriesSecret = (name: EventName) => {
  const shape = (EVENT_SCHEMAS[name] as unknown as { shape?: object }).shape ?? {};
  return SECRET_PAYLOAD_KEYS.some((key) => key in shape);
};
const unique = (values: string[]) => [...new Set(values)];

/**
 * The NATS permissions of one process's user, derived from contracts (ADR 0035): the request subjects it calls and
 * the events it writes (EVENT_FLOWS) are all it may publish; a service subscribes to its own area's subjects in its
 * own queue group, the gateway to the events it reads on core NATS; JetStream's API is opened per stream and per
 * durable consumer. Everything else is refused by the server.
 */
export function natsPermissions(party: EventParty, spaces: NatsSpaces): NatsPermissions {
  const { subjectPrefix: rpc, eventsPrefix: events, stream } = spaces;
  const calls = callsOf(party);
  const publish = calls.map((definition) => `${rpc}${definition.subject}`);
  // Every process checks tokens against account states it keeps briefly in memory, dropped on identity.changed (ADR 0057).
  const subscribe = [`${natsInboxPrefix(party)}.>`, `${rpc}${IDENTITY_CHANGED_SUBJECT}`];
  publish.push(...EVENT_NAMES.filter((name) => writes(party, name)).map((name) => `${events}.${name}`));
  // Every process makes sure the events stream exists at start (ensureEventStream); JetStream refuses a second,
  // different stream of the same name, so creating it changes nothing once it is there.
  publish.push('$JS.API.INFO', `$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.CREATE.${stream}`);
  if (party === 'gateway') {
    // Plain core NATS subscriptions, one per event it reads (live feed, browse cache); nothing is acknowledged.
    subscribe.push(...EVENT_NAMES.filter((name) => consumes(party, name)).map((name) => `${events}.${name}`));
    return { publish: unique(publish), subscribe: unique(subscribe), allowResponses: false };
  }
  for (const area of areasOf(party)) subscribe.push(`${rpc}${area}.> ${party}`);
  if (calls.includes(RPC.admin.effectiveSettings)) subscribe.push(`${rpc}${SETTINGS_CHANGED_SUBJECT}`);
  if (party === SETTINGS_PUBLISHER) publish.push(`${rpc}${SETTINGS_CHANGED_SUBJECT}`);
  if (party === IDENTITY_PUBLISHER) publish.push(`${rpc}${IDENTITY_CHANGED_SUBJECT}`);
  if (party === STREAM_LIMITS_OWNER) publish.push(`$JS.API.STREAM.UPDATE.${stream}`);
  const consumed = EVENT_NAMES.filter((name) => consumes(party, name));
  for (const name of consumed) {
    const durable = durableName(party, name);
    publish.push(
      // nats.js names the durable and its filter in the subject (servers from 2.9), older servers the durable alone.
      `$JS.API.CONSUMER.CREATE.${stream}.${durable}.${events}.${name}`,
      `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
      `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
      `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
      `$JS.ACK.${stream}.${durable}.>`,
    );
  }
  if (consumed.length > 0) publish.push(deadLetterSubject(events, party));
  // Deleting a handled message takes its sequence, not its subject: this right covers every message of the stream.
  if (consumed.some(carriesSecret)) publish.push(`$JS.API.STREAM.MSG.DELETE.${stream}`);
  return { publish: unique(publish), subscribe: unique(subscribe), allowResponses: true };
}

/** Every process that connects to NATS: the gateway and the six services, each with a user of its own. */
export const NATS_PARTIES: readonly EventParty[] = ['gateway', ...SERVICE_NAMES];

import type { RpcDefinition } from './rpc';
import { RPC, type ServiceName } from './subjects';
import { EVENT_FLOWS, type EventName, type EventParty } from './events';
import { areasOf, callsOf, NATS_PARTIES } from './nats-permissions';

/**
 * Who may say what on the bus (D25), from the same declarations the NATS permissions come from (ADR 0035): a request
 * is believed only from a party allowed to call its subject, a reply only from its subject's owner, an event only from
 * its declared writer. The signature proves the party; these say whether that party may.
 */

const ALL_SUBJECTS: readonly RpcDefinition[] = Object.values(RPC).flatMap((area) => Object.values(area) as RpcDefinition[]);

/** Every party allowed to call each subject: the gateway for a browser's subjects, the services that list it in SERVICE_CALLS. */
const CALLERS: ReadonlyMap<string, readonly EventParty[]> = new Map(
  ALL_SUBJECTS.map((definition) => [definition.subject, NATS_PARTIES.filter((party) => callsOf(party).includes(definition))]),
);

const OWNERS: ReadonlyMap<string, ServiceName> = new Map(
  ALL_SUBJECTS.map((definition) => {
    const area = definition.subject.split('.')[0];
    const owner = NATS_PARTIES.find((party) => party !== 'gateway' && areasOf(party as ServiceName).includes(area));
    if (!owner) throw new Error(`No service answers ${definition.subject}`);
    return [definition.subject, owner as ServiceName];
  }),
);

/** The parties that may send a request on `subject` (a declared subject without the deployment's prefix); none for an unknown one. */
export function callersOf(subject: string): readonly EventParty[] {
  return CALLERS.get(subject) ?? [];
}

/** True when `party` may send a request on `subject`: an internal subject answers only the services that list it. */
export function mayCall(party: string, subject: string): boolean {
  return (CALLERS.get(subject) ?? []).includes(party as EventParty);
}

/** The service that answers `subject` and so must sign its replies; null for an unknown subject. */
export function ownerOf(subject: string): ServiceName | null {
  return OWNERS.get(subject) ?? null;
}

/** The parties that may write event `name` (EVENT_FLOWS): its signature must be one of theirs. */
export function writersOf(name: EventName): readonly EventParty[] {
  return [EVENT_FLOWS[name].writtenBy].flat();
}

import { EVENT_FLOWS, EVENT_NAMES, type EventName } from './events';
import { callsOf, durableName, IDENTITY_PUBLISHER, NATS_PARTIES, natsPermissions, SERVICE_CALLS, SETTINGS_PUBLISHER, STREAM_LIMITS_OWNER } from './nats-permissions';
import { RPC, SERVICE_NAMES } from './subjects';

const spaces = { subjectPrefix: 'staging.', eventsPrefix: 'events', stream: 'EVENTS' };
const of = (party: (typeof NATS_PARTIES)[number]) => natsPermissions(party, spaces);
const eventSubjects = EVENT_NAMES.map((name) => `events.${name}`);
const allRequests = Object.values(RPC).flatMap((area) => Object.values(area));

describe('NATS permissions from contracts (ADR 0035)', () => {
  it('lets bidding-service publish the events it writes and no other', () => {
    const { publish } = of('bidding-service');
    expect(publish).toEqual(expect.arrayContaining(['events.bid.placed', 'events.bid.accepted', 'events.auction.closed', 'events.offer.made', 'events.bid.rejected']));
    expect(publish).not.toContain('events.user.deleted');
    expect(publish).not.toContain('events.listing.approved');
    expect(publish.filter((subject) => eventSubjects.includes(subject)).sort()).toEqual(
      EVENT_NAMES.filter((name) => [EVENT_FLOWS[name].writtenBy].flat().includes('bidding-service')).map((name) => `events.${name}`).sort(),
    );
  });

  it('lets the gateway publish no event but audit.recorded, call every public subject and its token check, and nothing internal', () => {
    const { publish, subscribe, allowResponses } = of('gateway');
    expect(publish.filter((subject) => subject.startsWith('events.'))).toEqual(['events.audit.recorded']);
    for (const definition of allRequests) {
      const expected = !definition.internal || definition === RPC.auth.sessionState;
      expect([definition.subject, publish.includes(`staging.${definition.subject}`)]).toEqual([definition.subject, expected]);
    }
    // It reads the events it consumes on core NATS, nothing else (no wildcard, no token-carrying event).
    const consumed = (EVENT_NAMES as EventName[]).filter((name) => EVENT_FLOWS[name].consumedBy.includes('gateway')).map((name) => `events.${name}`);
    expect(subscribe.filter((subject) => subject.startsWith('events.')).sort()).toEqual(consumed.sort());
    expect(subscribe).not.toContain('events.user.verification_requested');
    expect(subscribe.some((subject) => subject.includes('>') && !subject.startsWith('_INBOX.gateway.'))).toBe(false);
    // It answers no request and touches no consumer.
    expect(allowResponses).toBe(false);
    expect(publish.some((subject) => subject.startsWith('$JS.API.CONSUMER') || subject.startsWith('$JS.ACK'))).toBe(false);
  });

  it('lets each service answer only its own area, in its own queue group, and read only its own inboxes', () => {
    for (const service of SERVICE_NAMES) {
      const { subscribe, allowResponses } = of(service);
      const area = service.replace(/-service$/, '');
      const requests = subscribe.filter((subject) => subject.includes(' '));
      expect(requests).toEqual([`staging.${area}.> ${service}`]);
      expect(subscribe.filter((subject) => subject.startsWith('_INBOX.'))).toEqual([`_INBOX.${service}.>`]);
      // Services read events through their durable consumers, never on core NATS.
      expect(subscribe.some((subject) => subject.startsWith('events.'))).toBe(false);
      expect(allowResponses).toBe(true);
    }
  });

  it('lets a service call only what it calls, and internal subjects only where SERVICE_CALLS says', () => {
    expect(of('admin-service').publish).toEqual(expect.arrayContaining(['staging.auth.stats', 'staging.listings.stats', 'staging.billing.stats', 'staging.auth.session_state']));
    expect(of('billing-service').publish).toContain('staging.bidding.buy_now');
    expect(of('notifications-service').publish).toEqual(expect.arrayContaining(['staging.auth.contacts', 'staging.listings.get']));
    expect(of('listings-service').publish).not.toContain('staging.bidding.buy_now');
    expect(of('listings-service').publish).not.toContain('staging.auth.contacts');
    expect(of('bidding-service').publish).not.toContain('staging.auth.admin.impersonate');
    for (const service of SERVICE_NAMES) {
      const notices = ['staging.settings.changed', 'staging.identity.changed'];
      const requests = of(service).publish.filter((subject) => subject.startsWith('staging.') && !notices.includes(subject));
      expect(requests.sort()).toEqual(callsOf(service).map((definition) => `staging.${definition.subject}`).sort());
      expect(callsOf(service)).toEqual([RPC.auth.sessionState, ...SERVICE_CALLS[service]]);
    }
  });

  it('has admin-service alone announce settings changes, heard by the services that read settings', () => {
    for (const party of NATS_PARTIES) {
      const { publish, subscribe } = of(party);
      expect([party, publish.includes('staging.settings.changed')]).toEqual([party, party === SETTINGS_PUBLISHER]);
      const reads = party !== 'gateway' && SERVICE_CALLS[party].includes(RPC.admin.effectiveSettings);
      expect([party, subscribe.includes('staging.settings.changed')]).toEqual([party, reads]);
    }
  });

  it('has auth-service alone announce account and session changes, heard by every process (ADR 0057)', () => {
    for (const party of NATS_PARTIES) {
      const { publish, subscribe } = of(party);
      expect([party, publish.includes('staging.identity.changed')]).toEqual([party, party === IDENTITY_PUBLISHER]);
      expect([party, subscribe.includes('staging.identity.changed')]).toEqual([party, true]);
    }
  });

  it('opens JetStream per stream and per own durable consumer, acks and dead letters included', () => {
    const { publish } = of('listings-service');
    const durable = durableName('listings-service', 'bid.placed');
    expect(durable).toBe('listings-service-bid_placed');
    expect(publish).toEqual(
      expect.arrayContaining([
        '$JS.API.INFO',
        '$JS.API.STREAM.INFO.EVENTS',
        '$JS.API.STREAM.CREATE.EVENTS',
        `$JS.API.CONSUMER.CREATE.EVENTS.${durable}.events.bid.placed`,
        `$JS.API.CONSUMER.INFO.EVENTS.${durable}`,
        `$JS.API.CONSUMER.MSG.NEXT.EVENTS.${durable}`,
        `$JS.ACK.EVENTS.${durable}.>`,
        'events.dead_letter.listings-service',
      ]),
    );
    // Nobody else's consumer, no stream deletion or update, and no message deletion for a service without token events.
    expect(publish.filter((subject) => subject.startsWith('$JS.') && subject.includes('notifications-service'))).toEqual([]);
    for (const party of NATS_PARTIES) {
      expect(of(party).publish.some((subject) => /^\$JS\.API\.(STREAM\.(DELETE|PURGE)|CONSUMER\.DELETE)/.test(subject) || subject === '>' || subject === '$JS.API.>')).toBe(false);
      // Only the stream limits' owner updates the stream, and only this one (ADR 0046).
      expect([party, of(party).publish.filter((subject) => subject.startsWith('$JS.API.STREAM.UPDATE.'))]).toEqual([
        party,
        party === STREAM_LIMITS_OWNER ? ['$JS.API.STREAM.UPDATE.EVENTS'] : [],
      ]);
    }
    expect(publish).not.toContain('$JS.API.STREAM.MSG.DELETE.EVENTS');
    // notifications-service deletes the token-carrying account events it handled (ADR 0008).
    expect(of('notifications-service').publish).toContain('$JS.API.STREAM.MSG.DELETE.EVENTS');
  });

  it('gives a service without consumers no consumer rights and no dead-letter subject', () => {
    const consumesNothing = SERVICE_NAMES.filter((service) => !EVENT_NAMES.some((name) => EVENT_FLOWS[name].consumedBy.includes(service)));
    for (const service of consumesNothing) {
      const { publish } = of(service);
      expect(publish.some((subject) => subject.startsWith('$JS.API.CONSUMER') || subject.includes('dead_letter'))).toBe(false);
    }
  });
});

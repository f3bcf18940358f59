/** A reply packet of Nest's NATS transport, as its servers (ServerNats, PrefixedNatsServer) send it. */
export interface NestReply {
  id?: string;
  err?: unknown;
  response?: unknown;
  isDisposed?: boolean;
}

/**
 * The answer a reply packet carries, read as Nest's own ClientProxy reads it, so a client on nats.js's request gets
 * exactly what Nest's client got (ADR 0057): `err` is thrown as sent (the services' typed error payload), a `response`
 * is the answer, a packet with neither answered nothing (an error here, as Nest's empty sequence was), and a value
 * that is no packet at all is the answer itself.
 */
export function readNestReply(packet: unknown): unknown {
  if (typeof packet !== 'object' || packet === null) return packet;
  const { err, response, isDisposed } = packet as NestReply;
  if (err === undefined && response === undefined && isDisposed === undefined) return packet;
  if (err) throw err;
  if (response !== undefined) return response;
  throw new Error('The service answered nothing');
}

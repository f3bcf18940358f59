import type { z } from 'zod';

export type Role = 'admin' | 'regular';

/**
 * Who is acting, as each process derives it from a verified access token and the account's current state (ADR 0030):
 * never taken from a message as sent. Services re-check permissions on it.
 */
export interface Actor {
  user_id: string;
  /** The account's current role (not the token's). */
  role: Role;
  /** Whether the account's current email is verified, from its current state (set for verified callers). */
  email_verified?: boolean;
  /** Set when an admin acts as this user (impersonation). */
  impersonator_id?: string;
  /** Token version the token was issued with; a newer version on the account ends the session. */
  token_version?: number;
  /** The login session the token belongs to (logout ends it). */
  session_id?: string;
  /** The caller's access token, forwarded when a service asks another on the caller's behalf. */
  token?: string;
}

export interface RpcMeta {
  request_id: string;
  /** The caller's access token (or null for anonymous and system requests); each service verifies it itself. */
  token: string | null;
  /** When the caller stops waiting (epoch ms); a service drops a request whose deadline has passed (ADR 0047). */
  deadline?: number;
  /** The browser's Idempotency-Key for this write: a retry answers the first result (ADR 0047). */
  idempotency_key?: string;
  /** What the key must match on a retry (a hash of the request as the client sent it); the data's hash when absent. */
  idempotency_fingerprint?: string;
  /** The caller's W3C trace context, so the service's span continues its trace (ADR 0049). */
  traceparent?: string;
}

/** Every NATS request from the gateway or a service to a service has this shape. */
export interface RpcEnvelope<T = unknown> {
  meta: RpcMeta;
  data: T;
}

/**
 * One NATS request subject, declared once: the subject, the schema its request must pass (the service parses every
 * message with it) and the schema of its answer (the reply type at both ends; checked in tests, ADR 0002).
 */
export interface RpcDefinition<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly request: Req;
  readonly reply: Rep;
  /** Services only: the gateway never routes a browser request to it. */
  readonly internal: boolean;
}

/** What a caller sends for a subject (the schema's input). */
export type RpcRequest<D extends RpcDefinition> = z.input<D['request']>;
/** What the handler receives after the service parsed the request. */
export type RpcParsed<D extends RpcDefinition> = z.output<D['request']>;
/** What the subject answers. */
export type RpcReply<D extends RpcDefinition> = z.output<D['reply']>;

/** Declares a request subject with its request and reply schemas. */
export function defineRpc<Req extends z.ZodType, Rep extends z.ZodType>(
  subject: string,
  request: Req,
  reply: Rep,
  options: { internal?: boolean } = {},
): RpcDefinition<Req, Rep> {
  return { subject, request, reply, internal: options.internal === true };
}

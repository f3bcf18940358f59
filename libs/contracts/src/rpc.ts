export type Role = 'admin' | 'regular';

/** Who is acting: passed by the gateway in every message; services re-check permissions on it. */
export interface Actor {
  user_id: string;
  role: Role;
  /** Set when an admin acts as this user (impersonation). */
  impersonator_id?: string;
  /** Token version the JWT was issued with; a newer version on the account ends the session. */
  token_version?: number;
}

export interface RpcMeta {
  request_id: string;
  actor: Actor | null;
}

/** Every NATS request from the gateway to a service has this shape. */
export interface RpcEnvelope<T = unknown> {
  meta: RpcMeta;
  data: T;
}

import type { z } from 'zod';

/** Who may call a route: anyone, anyone (a valid token shows more), a signed-in user, or a real admin (D14). */
export type RouteAuth = 'public' | 'optional' | 'user' | 'admin';

/** Error statuses a route can answer beyond those its auth, inputs and the services imply (401, 403, 422, 503). */
export type RouteErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 503;

/** A reply that is not JSON (a PDF, an image): described by its media types. */
export interface BinaryReply {
  readonly binary: readonly string[];
}

/** The multipart form of a route: its text fields (as a schema) and the name of its file field. */
export interface MultipartBody {
  readonly fields: z.ZodType;
  readonly files: { readonly name: string; readonly max: number; readonly types: readonly string[] };
}

/**
 * One HTTP operation of the public API, declared once in contracts: the gateway registers and validates the route
 * from it and the OpenAPI document is generated from it (ADR 0028).
 */
export interface RouteDefinition<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType | BinaryReply = z.ZodType | BinaryReply,
> {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Below /api, OpenAPI style: `/listings/{id}`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly auth: RouteAuth;
  readonly params?: P;
  readonly query?: Q;
  /** An application/json body. */
  readonly body?: B;
  /** A multipart/form-data body (with or instead of a JSON one). */
  readonly multipart?: MultipartBody;
  /** A body taken as raw bytes of this media type (webhooks verify the exact bytes). */
  readonly rawBody?: string;
  readonly status: 200 | 201 | 204;
  readonly reply: R;
  readonly errors?: readonly RouteErrorStatus[];
  /** An error answer with more than `{detail}` (e.g. a 409 that hands back what is already in progress). */
  readonly errorReplies?: Partial<Readonly<Record<RouteErrorStatus, z.ZodType>>>;
  /** Takes an optional Idempotency-Key header: a retry with the same key answers the first result (ADR 0047). */
  readonly idempotent?: boolean;
  /** Extra response headers the success answer carries (name -> description). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The JSON a route answers with (unknown for binary replies). */
export type RouteReply<D extends RouteDefinition> = D['reply'] extends z.ZodType ? z.output<D['reply']> : unknown;

/** Declares one API route (see RouteDefinition). */
export function defineRoute<P extends z.ZodObject, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType | BinaryReply>(
  route: RouteDefinition<P, Q, B, R>,
): RouteDefinition<P, Q, B, R> {
  return route;
}

/** True when a reply is binary (not a zod schema). */
export function isBinaryReply(reply: z.ZodType | BinaryReply): reply is BinaryReply {
  return Array.isArray((reply as BinaryReply).binary);
}

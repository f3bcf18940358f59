import { z } from 'zod';

/** A path or body id: every id in the API is a UUID. */
export const UuidSchema = z.uuid({ message: 'Not a valid id' });

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a string PostgreSQL takes as a uuid in its usual form, any version or case; checked before a cast that would fail. */
export function isUuid(value: string): boolean {
  return UUID_SHAPE.test(value);
}

/** A moment in time as the API writes it (ISO 8601, UTC). */
export const IsoDateTimeSchema = z.iso.datetime({ offset: true });

/** A request that carries nothing but who is asking. */
export const EmptyRequestSchema = z.object({}).strict();

/** `{ id }` of the resource a path names. */
export const IdRequestSchema = z.object({ id: UuidSchema }).strict();

/** An answer that only says what happened. */
export const MessageResponseSchema = z.strictObject({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** One problem of a 422 answer: where (body, query or path, then the field), what, and the rule's code. */
export const ValidationIssueSchema = z.strictObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});

/** Every error answer: `{"detail": "..."}`, or a list of issues for a 422. */
export const ErrorResponseSchema = z.strictObject({ detail: z.union([z.string(), z.array(ValidationIssueSchema)]) });

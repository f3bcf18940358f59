import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors';

/** A path or body id: every id in the API is a UUID. */
export const UuidSchema = z.uuid({ message: 'Not a valid id' });

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a string PostgreSQL takes as a uuid in its usual form, any version or case; checked before a cast that would fail. */
export function isUuid(value: string): boolean {
  return UUID_SHAPE.test(value);
}

/** Money in whole US dollars: prices, bids, invoice totals and what they add up to (ADR 0079). */
export const WholeDollarsSchema = z.number().int().meta({ description: 'Whole US dollars' });

/** Money that may carry cents: a success fee and what follows from it, a ledger line (D10, ADR 0063). */
export const DollarsAndCentsSchema = z.number().meta({ description: 'US dollars; may carry cents (at most two decimals)' });

/** A moment in time as the API writes it (ISO 8601, UTC). */
export const IsoDateTimeSchema = z.iso.datetime({ offset: true });

/** A request that carries nothing but who is asking. */
export const EmptyRequestSchema = z.object({}).strict();

/** `{ id }` of the resource a path names. */
export const IdRequestSchema = z.object({ id: UuidSchema }).strict();

/** An answer that only says what happened. */
export const MessageResponseSchema = z.strictObject({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** One problem of a 422 answer: where (body, query or path, then the field), what, and the rule's code. */
export const ValidationIssueSchema = z
  .strictObject({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
  })
  .meta({ id: 'ValidationIssue' });

/**
 * Every error answer (ADR 0079): RFC 9457 problem details (application/problem+json) with the stable `code` of
 * ERROR_CODES, and `detail` as the SPEC has it: a sentence, or for a 422 the list of issues (repeated in `errors`).
 */
export const ProblemSchema = z
  .strictObject({
    type: z.string().meta({ description: 'Names the error: /api/errors/<code>, which answers what the code means' }),
    title: z.string().meta({ description: "The code's short title, the same for every error of the code" }),
    status: z.number().int().meta({ description: 'The HTTP status' }),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).meta({ description: 'The stable machine code to branch on (GET /api/errors lists them)' }),
    detail: z.union([z.string(), z.array(ValidationIssueSchema)]).meta({ description: 'For people: what went wrong; for a 422, the list of issues' }),
    errors: z.array(ValidationIssueSchema).optional().meta({ description: "A 422's issues, for clients that expect detail to be text" }),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof ProblemSchema>;

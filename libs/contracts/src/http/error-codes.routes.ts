import { z } from 'zod';
import { ERROR_CODES, errorCodeInfo, errorCodeList, type ErrorCode } from '../errors';
import { defineRoute } from './define-route';

/** One error code as GET /api/errors tells it: what a problem body's `type` points at (ADR 0079). */
export const ErrorCodeInfoSchema = z
  .strictObject({
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    type: z.string(),
    status: z.number().int(),
    title: z.string(),
    description: z.string(),
  })
  .meta({ id: 'ErrorCode', examples: [errorCodeInfo('rate_limited')] });
export type ErrorCodeInfoDto = z.infer<typeof ErrorCodeInfoSchema>;

export const ErrorCodesResponseSchema = z
  .strictObject({ errors: z.array(ErrorCodeInfoSchema) })
  .meta({ id: 'ErrorCodesResponse', examples: [{ errors: errorCodeList().slice(0, 2) }] });
export type ErrorCodesResponse = z.infer<typeof ErrorCodesResponseSchema>;

const ErrorCodeParamsSchema = z.object({ code: z.string().max(64).meta({ example: 'rate_limited' }) }).strict();

/** The API's error codes, public and the same for every caller: where each problem body's `type` leads. */
export const ERROR_CODE_ROUTES = {
  list: defineRoute({
    method: 'get',
    path: '/errors',
    tag: 'errors',
    summary: 'Every error code the API answers with',
    description: 'The one list of stable codes (ADR 0079), each with its HTTP status, title and when a client gets it. Codes are only ever added.',
    auth: 'public',
    status: 200,
    reply: ErrorCodesResponseSchema,
    headers: { 'Cache-Control': 'public, max-age=3600' },
  }),
  get: defineRoute({
    method: 'get',
    path: '/errors/{code}',
    tag: 'errors',
    summary: 'What one error code means',
    description: "The `type` of a problem body resolves here: /api/errors/rate_limited. An unknown code is a 404.",
    auth: 'public',
    params: ErrorCodeParamsSchema,
    status: 200,
    reply: ErrorCodeInfoSchema,
    errors: [404],
    headers: { 'Cache-Control': 'public, max-age=3600' },
  }),
};

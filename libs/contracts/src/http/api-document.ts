import { buildOpenApiDocument } from './openapi';
import { API, API_TAGS } from './routes';

let cached: Record<string, unknown> | undefined;

/** The public API's OpenAPI 3.1 document, built once from the route declarations (served at /api/docs, ADR 0028). */
export function apiDocument(): Record<string, unknown> {
  cached ??= buildOpenApiDocument(API, {
    title: 'Site Market API',
    version: '1',
    description:
      'The marketplace API. Money is in whole dollars unless a field says it carries cents. Errors are RFC 9457 problem details ' +
      '(application/problem+json): a stable `code` to branch on (GET /api/errors lists them), `type`, `title`, `status`, and ' +
      '`detail` for people; validation failures are 422 with detail (and errors) listing {loc, msg, type}. Send the access ' +
      'token as a Bearer header.',
    tags: API_TAGS,
  });
  return cached;
}

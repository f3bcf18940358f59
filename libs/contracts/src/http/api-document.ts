import { buildOpenApiDocument } from './openapi';
import { API, API_TAGS } from './routes';

let cached: Record<string, unknown> | undefined;

/** The public API's OpenAPI 3.1 document, built once from the route declarations (served at /api/docs, ADR 0028). */
export function apiDocument(): Record<string, unknown> {
  cached ??= buildOpenApiDocument(API, {
    title: 'Site Market API',
    version: '1',
    description:
      'The marketplace API. Money is in whole dollars unless a field says otherwise. Errors are {"detail": "..."}; ' +
      'validation failures are 422 with a list of {loc, msg, type}. Send the access token as a Bearer header.',
    tags: API_TAGS,
  });
  return cached;
}

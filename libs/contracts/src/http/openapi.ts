import { z } from 'zod';
import { ErrorResponseSchema } from '../common.schemas';
import { isBinaryReply, type RouteDefinition, type RouteErrorStatus } from './define-route';

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

const ERROR_DESCRIPTIONS: Record<RouteErrorStatus | 422, string> = {
  400: 'The request cannot be done as asked; detail says why',
  401: 'No valid token, or its session has ended',
  403: 'Not allowed for this account',
  404: 'Not found (or not visible to this caller)',
  408: 'The upload did not arrive in time (in all, or with a long pause); send it again',
  409: 'Conflicts with the current state',
  413: 'The request body is too large',
  415: 'The request body has an unsupported encoding',
  422: 'Validation failed (or the body is not valid JSON): detail lists each problem with its location',
  429: 'A limit of this client was reached (attempts per address or account, uploads running, messages sent, domain checks); Retry-After says in how many seconds to try again, RateLimit-Policy and RateLimit which quota it was (ADR 0064)',
  503: 'The server\'s own capacity or a service it needs: unavailable, too slow, too many uploads in this gateway or too many bids waiting on a listing; try again (after Retry-After, when it says)',
};
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } };
// The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10; ADR 0064).
const RATE_LIMIT_HEADERS = {
  ...RETRY_AFTER,
  'RateLimit-Policy': {
    description: 'The quota that refused the request, e.g. "login-account";q=10;w=900 (q requests per w seconds) or "uploads";q=4;qu="concurrent-requests"',
    schema: { type: 'string' },
  },
  RateLimit: { description: 'What is left of it and when it has room again, e.g. "login-account";r=0;t=540 (r requests left, t seconds)', schema: { type: 'string' } },
};

/** A zod schema as a JSON Schema (draft 2020-12, which OpenAPI 3.1 uses) without the $schema key. */
export function jsonSchemaOf(schema: z.ZodType, io: Io): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  delete json.$schema;
  return withoutFormatPatterns(json) as JsonSchema;
}

const FORMATS_WITH_OWN_RULES = new Set(['uuid', 'date-time', 'date', 'email']);

/** Drops the regex zod adds beside a standard format (uuid, date-time...): the format says it, and tools draw examples from it. */
function withoutFormatPatterns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFormatPatterns);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, item]) => [key, withoutFormatPatterns(item)] as const);
  const object = Object.fromEntries(entries) as JsonSchema;
  if (typeof object.format === 'string' && FORMATS_WITH_OWN_RULES.has(object.format)) delete object.pattern;
  return object;
}

const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A fresh key per user action (a UUID). A retry with the same key answers the first result, status and body, and does nothing ' +
    'twice; the same key with a different request is 422, and a retry while the first still runs is 409. Keys last 24 h (ADR 0047).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{8,128}$' },
};

function parameters(route: RouteDefinition): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchemaOf(schema, 'input');
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties as Record<string, JsonSchema>) ?? {})) {
      const { description, ...propertySchema } = property;
      list.push({ name, in: where, required: where === 'path' || required.has(name), schema: propertySchema, ...(description ? { description } : {}) });
    }
  }
  if (route.idempotent) list.push(IDEMPOTENCY_KEY_PARAMETER);
  return list;
}

function requestBody(route: RouteDefinition): JsonSchema | undefined {
  const content: Record<string, JsonSchema> = {};
  if (route.body) content['application/json'] = { schema: jsonSchemaOf(route.body, 'input') };
  if (route.multipart) {
    const fields = jsonSchemaOf(route.multipart.fields, 'input');
    const { name, max, types } = route.multipart.files;
    const properties = {
      ...((fields.properties as JsonSchema) ?? {}),
      [name]: { type: 'array', maxItems: max, items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: `Image files (${types.join(', ')})` },
    };
    content['multipart/form-data'] = { schema: { ...fields, properties, additionalProperties: false } };
  }
  if (route.rawBody) content[route.rawBody] = { schema: { type: 'string' } };
  return Object.keys(content).length > 0 ? { required: true, content } : undefined;
}

/** The error statuses a route can answer: its own, plus what its auth and inputs imply, plus 503 for any service. */
export function errorStatuses(route: RouteDefinition): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.auth !== 'public') statuses.add(401);
  if (route.auth === 'admin') statuses.add(403);
  // A malformed key (400), a key whose first request still runs (409), a key used for another body (422).
  if (route.idempotent) for (const status of [400, 409, 422]) statuses.add(status);
  if (route.params || route.query || route.body || route.multipart) statuses.add(422);
  // A multipart upload must arrive within the gateway's deadline and idle gap (ADR 0029).
  if (route.multipart) statuses.add(408);
  // Every request with a body goes through the gateway's body parser: too large, a bad encoding, or not JSON.
  if (route.method !== 'get' && route.method !== 'delete') {
    statuses.add(413);
    statuses.add(415);
    if (!route.rawBody) statuses.add(422);
  }
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

function responses(route: RouteDefinition): JsonSchema {
  const headers = route.headers
    ? { headers: Object.fromEntries(Object.entries(route.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
    : {};
  let success: JsonSchema;
  if (route.status === 204) success = { description: 'Done; no content', ...headers };
  else if (isBinaryReply(route.reply)) {
    success = {
      description: 'The file',
      ...headers,
      content: Object.fromEntries(route.reply.binary.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
    };
  } else success = { description: route.summary, ...headers, content: { 'application/json': { schema: jsonSchemaOf(route.reply, 'output') } } };
  const all: JsonSchema = { [String(route.status)]: success };
  for (const status of errorStatuses(route)) {
    const special = route.errorReplies?.[status as RouteErrorStatus];
    all[String(status)] = special
      ? { description: ERROR_DESCRIPTIONS[status as RouteErrorStatus], content: { 'application/json': { schema: jsonSchemaOf(special, 'output') } } }
      : { $ref: `#/components/responses/Error${status}` };
  }
  return all;
}

function security(route: RouteDefinition): JsonSchema[] {
  if (route.auth === 'public') return [];
  if (route.auth === 'optional') return [{ bearer: [] }, {}];
  return [{ bearer: [] }];
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  tags: Record<string, string>;
}

/** The OpenAPI 3.1 document of every route, generated from the route declarations in contracts. */
export function buildOpenApiDocument(routes: Record<string, Record<string, RouteDefinition>>, info: OpenApiInfo): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const [group, members] of Object.entries(routes)) {
    for (const [name, route] of Object.entries(members)) {
      const operation: JsonSchema = {
        operationId: `${group}_${name}`,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: [route.tag],
        security: security(route),
        responses: responses(route),
      };
      const params = parameters(route);
      if (params.length > 0) operation.parameters = params;
      const body = requestBody(route);
      if (body) operation.requestBody = body;
      paths[route.path] ??= {};
      if (paths[route.path][route.method]) throw new Error(`Two routes declare ${route.method.toUpperCase()} ${route.path}`);
      paths[route.path][route.method] = operation;
    }
  }
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [
      `Error${status}`,
      {
        description,
        ...(status === '429' ? { headers: RATE_LIMIT_HEADERS } : status === '503' ? { headers: RETRY_AFTER } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
    servers: [{ url: '/api', description: 'This marketplace' }],
    tags: Object.entries(info.tags).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { Error: jsonSchemaOf(ErrorResponseSchema, 'output') },
      responses: errorResponses,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access_token from POST /auth/login' } },
    },
  };
}

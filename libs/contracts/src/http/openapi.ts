import { ProblemSchema } from '../common.schemas';
import { PROBLEM_MEDIA_TYPE, problemOf, type ErrorCode } from '../errors';
import { isBinaryReply, type RouteDefinition, type RouteErrorStatus } from './define-route';
import { SchemaComponents, type JsonSchema } from './openapi-components';
import { exampleOf } from './openapi-examples';

export { jsonSchemaOf } from './openapi-components';

type DocumentedStatus = RouteErrorStatus | 422 | 500;

const ERROR_DESCRIPTIONS: Record<DocumentedStatus, string> = {
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
  500: 'A fault of ours: logged with the request id (X-Request-Id), nothing said about it; the code is internal',
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

const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A fresh key per user action (a UUID). A retry with the same key answers the first result, status and body, and does nothing ' +
    'twice; the same key with a different request is 422, and a retry while the first still runs is 409. Keys last 24 h (ADR 0047).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{8,128}$' },
  example: '5b0c2f9e-8a55-4d43-9b8e-7f3c1c0d2a61',
};

/** An example error body for each status the document describes, with the code a client would get. */
const ERROR_EXAMPLES: Record<DocumentedStatus, { code: ErrorCode; detail: string | { loc: (string | number)[]; msg: string; type: string }[] }> = {
  400: { code: 'bad_request', detail: 'Bid must be at least $25,100' },
  401: { code: 'unauthorized', detail: 'Not authenticated' },
  403: { code: 'forbidden', detail: 'You do not have permission to perform this action' },
  404: { code: 'not_found', detail: 'Listing not found' },
  408: { code: 'request_timeout', detail: 'The upload took too long; send it again' },
  409: { code: 'conflict', detail: 'This listing has already been sold' },
  413: { code: 'payload_too_large', detail: 'Request body is larger than 1mb' },
  415: { code: 'unsupported_media_type', detail: 'Unsupported request body encoding' },
  422: { code: 'validation_failed', detail: [{ loc: ['body', 'amount'], msg: 'Amount must be a whole number of dollars', type: 'invalid_type' }] },
  429: { code: 'rate_limited', detail: 'Too many login attempts; try again in 9 minutes' },
  500: { code: 'internal', detail: 'Internal server error' },
  503: { code: 'unavailable', detail: 'Service temporarily unavailable, please try again' },
};

/** The media type object of a schema, with its example (ADR 0079). */
function media(schema: JsonSchema, components: SchemaComponents, example?: unknown): JsonSchema {
  return { schema, example: example === undefined ? exampleOf(schema, components) : example };
}

function parameters(route: RouteDefinition, components: SchemaComponents): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = components.schemaOf(schema, 'input');
    // Parameters are listed one by one: a named path or query schema would hide them behind a $ref.
    if (typeof json.$ref === 'string') throw new Error(`${route.method.toUpperCase()} ${route.path}: a ${where} schema must not be named (.meta({ id }))`);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties as Record<string, JsonSchema>) ?? {})) {
      const { description, ...propertySchema } = property;
      list.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: propertySchema,
        example: exampleOf(propertySchema, components, name, `${route.path}.${name}`),
        ...(description ? { description } : {}),
      });
    }
  }
  if (route.idempotent) list.push(IDEMPOTENCY_KEY_PARAMETER);
  return list;
}

function requestBody(route: RouteDefinition, components: SchemaComponents): JsonSchema | undefined {
  const content: Record<string, JsonSchema> = {};
  if (route.body) content['application/json'] = media(components.schemaOf(route.body, 'input'), components);
  if (route.multipart) {
    // The form's fields inline (a multipart schema adds the file part to them), each part's media type in `encoding`.
    const named = components.schemaOf(route.multipart.fields, 'input');
    const fields = typeof named.$ref === 'string' ? { ...(components.resolve(named.$ref) ?? {}) } : named;
    const { name, max, types } = route.multipart.files;
    const fieldProperties = (fields.properties as Record<string, JsonSchema>) ?? {};
    const properties = {
      ...fieldProperties,
      [name]: { type: 'array', maxItems: max, items: { type: 'string', contentMediaType: types[0] }, description: `Image files, each one of ${types.join(', ')}` },
    };
    const encoding = Object.fromEntries([
      ...Object.keys(fieldProperties).map((field) => [field, { contentType: 'text/plain' }]),
      [name, { contentType: types.join(', ') }],
    ]);
    const schema = { ...fields, properties, additionalProperties: false };
    content['multipart/form-data'] = { ...media(schema, components, exampleOf(fields, components)), encoding };
  }
  if (route.rawBody) {
    const example = JSON.stringify({ id: 'evt_1QxExample', type: 'payment_intent.succeeded', data: { object: { id: 'pi_3QxExample', amount: 2500000 } } });
    content[route.rawBody] = { schema: { type: 'string', description: 'The exact bytes the provider signed' }, example };
  }
  return Object.keys(content).length > 0 ? { required: true, content } : undefined;
}

/** The error statuses a route can answer: its own, what its auth and inputs imply, and 500 and 503 for any. */
export function errorStatuses(route: RouteDefinition): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.auth !== 'public') statuses.add(401);
  if (route.auth === 'admin') statuses.add(403);
  // A malformed key (400), a key whose first request still runs (409), a key used for another body (422).
  if (route.idempotent) for (const status of [400, 409, 422]) statuses.add(status);
  if (route.params || route.query || route.body || route.multipart) statuses.add(422);
  // A multipart upload must arrive within the gateway's deadline and idle gap (ADR 0029).
  if (route.multipart) statuses.add(408);
  // Every request with a body goes through the gateway's body parser: compressed bytes that do not decompress, too
  // large, an unknown encoding, or not JSON.
  if (route.method !== 'get' && route.method !== 'delete') {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
    if (!route.rawBody) statuses.add(422);
  }
  statuses.add(500);
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

function responses(route: RouteDefinition, components: SchemaComponents): JsonSchema {
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
  } else success = { description: route.summary, ...headers, content: { 'application/json': media(components.schemaOf(route.reply, 'output'), components) } };
  const all: JsonSchema = { [String(route.status)]: success };
  for (const status of errorStatuses(route)) {
    const special = route.errorReplies?.[status as RouteErrorStatus];
    all[String(status)] = special
      ? { description: ERROR_DESCRIPTIONS[status as DocumentedStatus], content: { [PROBLEM_MEDIA_TYPE]: media(components.schemaOf(special, 'output'), components) } }
      : { $ref: `#/components/responses/Error${status}` };
  }
  return all;
}

function security(route: RouteDefinition): JsonSchema[] {
  if (route.auth === 'public') return [];
  if (route.auth === 'optional') return [{ bearer: [] }, {}];
  return [{ bearer: [] }];
}

/** Every `$ref` target in a part of the document. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.add(item);
      else refsIn(item, found);
    }
  }
  return found;
}

/** The named schemas something refers to (a multipart form inlines its fields, so its own name may be unused). */
function referenced(schemas: Record<string, JsonSchema>, rest: unknown): Record<string, JsonSchema> {
  const used = new Set<string>();
  const queue = [...refsIn(rest)];
  while (queue.length > 0) {
    const name = (queue.pop() as string).replace('#/components/schemas/', '');
    if (used.has(name) || !Object.hasOwn(schemas, name)) continue;
    used.add(name);
    queue.push(...refsIn(schemas[name]));
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  tags: Record<string, string>;
}

/** The OpenAPI 3.1 document of every route, generated from the route declarations in contracts. */
export function buildOpenApiDocument(routes: Record<string, Record<string, RouteDefinition>>, info: OpenApiInfo): JsonSchema {
  const components = new SchemaComponents();
  const problem = components.schemaOf(ProblemSchema, 'output');
  const declared = Object.entries(routes).flatMap(([group, members]) => Object.entries(members).map(([name, route]) => ({ id: `${group}_${name}`, route })));
  // Answers first, so a schema that differs between what is sent and what is answered keeps its plain name for the answer.
  const answers = new Map(declared.map(({ id, route }) => [id, responses(route, components)]));
  const paths: Record<string, JsonSchema> = {};
  for (const { id, route } of declared) {
    const operation: JsonSchema = {
      operationId: id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: security(route),
      responses: answers.get(id),
    };
    const params = parameters(route, components);
    if (params.length > 0) operation.parameters = params;
    const body = requestBody(route, components);
    if (body) operation.requestBody = body;
    paths[route.path] ??= {};
    if (paths[route.path][route.method]) throw new Error(`Two routes declare ${route.method.toUpperCase()} ${route.path}`);
    paths[route.path][route.method] = operation;
  }
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => {
      const { code, detail } = ERROR_EXAMPLES[Number(status) as DocumentedStatus];
      return [
        `Error${status}`,
        {
          description,
          ...(status === '429' ? { headers: RATE_LIMIT_HEADERS } : status === '503' ? { headers: RETRY_AFTER } : {}),
          content: { [PROBLEM_MEDIA_TYPE]: media(problem, components, problemOf({ code, status: Number(status), detail })) },
        },
      ];
    }),
  );
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
    servers: [{ url: '/api', description: 'This marketplace' }],
    tags: Object.entries(info.tags).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: referenced(components.sorted(), { paths, errorResponses }),
      responses: errorResponses,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access_token from POST /auth/login' } },
    },
  };
}

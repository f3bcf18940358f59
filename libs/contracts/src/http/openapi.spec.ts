import { z } from 'zod';
import { ProblemSchema } from '../common.schemas';
import { ERROR_CODES, ERROR_STATUS, problemOf, type ErrorCode } from '../errors';
import { apiDocument } from './api-document';
import { defineRoute, isBinaryReply, type RouteDefinition } from './define-route';
import { buildOpenApiDocument } from './openapi';
import { apiDocumentProblems } from './openapi-rules';
import { API } from './routes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the document is plain JSON

const document = apiDocument() as Json;
const declared = Object.entries(API).flatMap(([group, members]) => Object.entries(members as Record<string, RouteDefinition>).map(([name, route]) => ({ id: `${group}_${name}`, route })));
const operationOf = (route: RouteDefinition): Json => document.paths[route.path][route.method];
const responseOf = (answer: Json): Json => (answer.$ref ? document.components.responses[answer.$ref.split('/').pop()] : answer);

/** The issues zod finds in an example, as one line per issue (empty when it parses). */
function issuesOf(schema: z.ZodType, example: unknown): string[] {
  const result = schema.safeParse(example);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('the API document (ADR 0079)', () => {
  it('keeps its rules: described, exemplified, named schemas, no shape twice, money typed', () => {
    expect(apiDocumentProblems(document)).toEqual([]);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Listing', 'Bid', 'Invoice', 'User', 'Problem', 'Message', 'SavedSearch']));
  });

  it.each(declared)('$id: each example is what the route takes and answers', ({ route }) => {
    const operation = operationOf(route);
    const problems: string[] = [];
    const json = operation.requestBody?.content['application/json'];
    if (route.body) problems.push(...issuesOf(route.body, json.example).map((issue) => `request ${issue}`));
    const form = operation.requestBody?.content['multipart/form-data'];
    if (route.multipart) problems.push(...issuesOf(route.multipart.fields, form.example).map((issue) => `form ${issue}`));
    for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
      if (!schema) continue;
      const values = Object.fromEntries((operation.parameters as Json[]).filter((parameter) => parameter.in === where).map((parameter) => [parameter.name, parameter.example]));
      problems.push(...issuesOf(schema, values).map((issue) => `${where} ${issue}`));
    }
    const success = operation.responses[String(route.status)];
    if (route.status !== 204 && !isBinaryReply(route.reply)) problems.push(...issuesOf(route.reply, success.content['application/json'].example).map((issue) => `answer ${issue}`));
    for (const [status, answer] of Object.entries(operation.responses as Json)) {
      if (status.startsWith('2')) continue;
      const [type, media] = Object.entries(responseOf(answer).content as Json)[0];
      const special = route.errorReplies?.[Number(status) as keyof typeof route.errorReplies];
      expect(type).toBe('application/problem+json');
      problems.push(...issuesOf(special ?? ProblemSchema, media.example).map((issue) => `${status} ${issue}`));
      if (!special) expect(media.example).toMatchObject({ status: Number(status), code: expect.any(String) });
    }
    expect(problems).toEqual([]);
  });

  it('types whole dollars as integers and says which fields carry cents', () => {
    const { Invoice, PlaceBidRequest, SellerPayouts } = document.components.schemas;
    expect(Invoice.properties.total_amount).toMatchObject({ type: 'integer' });
    expect(Invoice.properties.success_fee.anyOf[0]).toMatchObject({ type: 'number', description: expect.stringContaining('cents') });
    expect(PlaceBidRequest.properties.amount.type).toBe('integer');
    expect(SellerPayouts.properties.balance.properties.paid_out).toMatchObject({ type: 'number', description: expect.stringContaining('cents') });
  });

  it('describes each part of a multipart form: text fields, and the files with their image types', () => {
    const form = document.paths['/listings'].post.requestBody.content['multipart/form-data'];
    expect(form.encoding.title).toEqual({ contentType: 'text/plain' });
    expect(form.encoding.screenshots.contentType).toMatch(/image\/png/);
    expect(form.schema.properties.screenshots.items.contentMediaType).toMatch(/^image\//);
  });
});

describe('the document rules catch what they are for', () => {
  const Thing = z.strictObject({ a: z.string(), b: z.number().int() });
  const route = (overrides: Partial<RouteDefinition>): RouteDefinition =>
    defineRoute({ method: 'get', path: '/things', summary: 'Things', description: 'All things.', tag: 't', auth: 'public', status: 200, reply: Thing.meta({ id: 'Thing' }), ...overrides });
  const problemsOf = (routes: Record<string, RouteDefinition>) => apiDocumentProblems(buildOpenApiDocument({ things: routes }, { title: 't', version: '1', description: 'd', tags: {} }));

  it('passes a described route that answers a named schema', () => {
    expect(problemsOf({ list: route({}) })).toEqual([]);
  });

  it('refuses an operation without a description', () => {
    expect(problemsOf({ list: route({ description: undefined }) })).toEqual(['GET /things has no description']);
  });

  it('refuses an answer that is no named schema, and a shape spelled out twice', () => {
    const problems = problemsOf({ list: route({ reply: Thing }), other: route({ path: '/others', reply: Thing }) });
    expect(problems).toEqual(
      expect.arrayContaining(['GET /things: the 200 answer is not a named schema', 'GET /others: the 200 answer is not a named schema', expect.stringMatching(/an unnamed object \(a, b\) is spelled out 2 times/)]),
    );
  });

  it('refuses a fractional money field unless it says it carries cents', () => {
    const Priced = (price: z.ZodNumber) => z.strictObject({ title: z.string(), price }).meta({ id: 'Priced' });
    expect(problemsOf({ list: route({ reply: Priced(z.number()) }) })).toEqual([expect.stringMatching(/Priced\.price is a fractional number/)]);
    expect(problemsOf({ list: route({ reply: Priced(z.number().int()) }) })).toEqual([]);
    expect(problemsOf({ list: route({ reply: Priced(z.number().meta({ description: 'Dollars with cents' })) }) })).toEqual([]);
  });

  it('refuses a request or an answer without an example', () => {
    const built = buildOpenApiDocument({ things: { list: route({}) } }, { title: 't', version: '1', description: 'd', tags: {} }) as Json;
    delete built.paths['/things'].get.responses['200'].content['application/json'].example;
    expect(apiDocumentProblems(built)).toEqual(['GET /things: the 200 application/json answer has no example']);
  });
});

describe('error bodies (RFC 9457, ADR 0079)', () => {
  it('carry type, title, status and the stable code beside the SPEC detail', () => {
    expect(problemOf({ code: 'not_found', status: 404, detail: 'Listing not found' })).toEqual({
      type: '/api/errors/not_found',
      title: 'Not found',
      status: 404,
      code: 'not_found',
      detail: 'Listing not found',
    });
    const issues = [{ loc: ['body', 'amount'], msg: 'Required', type: 'invalid_type' }];
    expect(problemOf({ code: 'validation_failed', status: 422, detail: issues })).toMatchObject({ detail: issues, errors: issues });
  });

  it('have one list of codes, each with a status, a title and a description', () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect([code, ERROR_STATUS[code as ErrorCode]]).toEqual([code, info.status]);
      expect(info.title.length).toBeGreaterThan(2);
      expect(info.description.length).toBeGreaterThan(20);
    }
    expect(Object.keys(ERROR_CODES)).toEqual(expect.arrayContaining(['validation_failed', 'rate_limited', 'overloaded', 'unsupported_media_type']));
  });
});

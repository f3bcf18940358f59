// The rules the API document keeps (ADR 0079), one implementation for the contracts spec and CI
// (scripts/check-openapi.mjs): every operation is described and has examples, answers and bodies are named schemas,
// no object shape is spelled out twice, and money fields say whether they are whole dollars or carry cents.

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
/** A numeric field whose name says money; it is whole dollars (integer) or says it carries cents. */
const MONEY = /(^|_)(amount|price|bid|revenue|total_amount|gross|fee|fees|net|balance|payout|paid_out|in_escrow|value)(_|$)/;
const NOT_MONEY = /percent|rate|count|version/;
/** A fractional field says what it is: money with cents, or a percent. */
const SAYS_NOT_WHOLE = /cents|percent/i;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The parts of a response or request body: each media type with its schema and example. */
function mediaOf(holder: unknown): [string, Json][] {
  return isObject(holder) && isObject(holder.content) ? (Object.entries(holder.content) as [string, Json][]) : [];
}

/** A media type whose answer is a file (a PDF, an image), which no example can show. */
const isFile = (type: string, media: Json) => !type.includes('json') && isObject(media.schema) && typeof media.schema.contentMediaType === 'string';

/** A schema that is a named schema, or a list of one. */
const isNamed = (schema: unknown) =>
  isObject(schema) && (typeof schema.$ref === 'string' || (schema.type === 'array' && isObject(schema.items) && typeof schema.items.$ref === 'string'));

/** Every object schema below `value` (the value itself when `self`), with where it is. */
function objectsIn(value: unknown, where: string, self: boolean, found: [string, Json][] = []): [string, Json][] {
  if (Array.isArray(value)) value.forEach((item, index) => objectsIn(item, `${where}[${index}]`, true, found));
  else if (isObject(value)) {
    if (self && value.type === 'object' && isObject(value.properties) && Object.keys(value.properties).length >= 2) found.push([where, value]);
    for (const [key, item] of Object.entries(value)) if (key !== 'example' && key !== 'examples') objectsIn(item, `${where}.${key}`, true, found);
  }
  return found;
}

/** Money fields that are neither whole dollars nor said to carry cents. */
function moneyProblems(schemas: Json): string[] {
  const problems: string[] = [];
  for (const [where, object] of objectsIn(schemas, 'components.schemas', true)) {
    for (const [name, property] of Object.entries(object.properties as Json)) {
      if (!MONEY.test(name) || NOT_MONEY.test(name) || !isObject(property)) continue;
      const options = [property, ...((property.anyOf as Json[] | undefined) ?? [])];
      const fractional = options.some((option) => [option.type].flat().includes('number'));
      if (fractional && !options.some((option) => SAYS_NOT_WHOLE.test(String(option.description ?? '')))) {
        problems.push(`${where}.${name} is a fractional number: whole dollars are integers, and a field with cents says so in its description`);
      }
    }
  }
  return problems;
}

/** What the API document breaks of its rules (empty when it keeps them all). */
export function apiDocumentProblems(document: Json): string[] {
  const problems: string[] = [];
  const components = (document.components ?? {}) as Json;
  const responses = (components.responses ?? {}) as Json;
  const resolve = (answer: unknown): unknown =>
    isObject(answer) && typeof answer.$ref === 'string' ? responses[answer.$ref.replace('#/components/responses/', '')] : answer;

  for (const [path, item] of Object.entries((document.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method];
      if (!isObject(operation)) continue;
      const name = `${method.toUpperCase()} ${path}`;
      if (!String(operation.summary ?? '').trim()) problems.push(`${name} has no summary`);
      if (!String(operation.description ?? '').trim()) problems.push(`${name} has no description`);
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (!('example' in parameter) && !('examples' in parameter)) problems.push(`${name}: parameter ${String(parameter.name)} has no example`);
      }
      for (const [type, media] of mediaOf(operation.requestBody)) {
        if (!('example' in media) && !('examples' in media)) problems.push(`${name}: the ${type} request has no example`);
        // A raw body (a webhook's signed bytes) is a string, not a shape to name.
        const raw = isObject(media.schema) && media.schema.type === 'string';
        if (type === 'application/json' && !raw && !isNamed(media.schema)) problems.push(`${name}: the JSON request is not a named schema`);
      }
      for (const [status, answer] of Object.entries((operation.responses ?? {}) as Json)) {
        for (const [type, media] of mediaOf(resolve(answer))) {
          if (isFile(type, media)) continue;
          if (!('example' in media) && !('examples' in media)) problems.push(`${name}: the ${status} ${type} answer has no example`);
          if (status.startsWith('2') && type === 'application/json' && !isNamed(media.schema)) problems.push(`${name}: the ${status} answer is not a named schema`);
        }
      }
    }
  }

  // A shape spelled out twice becomes two types in a generated client: name it once and refer to it.
  const seen = new Map<string, string[]>();
  const schemas = (components.schemas ?? {}) as Json;
  const places = [
    ...objectsIn(document.paths, 'paths', true),
    ...Object.entries(schemas).flatMap(([schemaName, schema]) => objectsIn(schema, `components.schemas.${schemaName}`, false)),
  ];
  for (const [where, object] of places) {
    const key = JSON.stringify(object);
    seen.set(key, [...(seen.get(key) ?? []), where]);
  }
  for (const [key, wheres] of seen) {
    if (wheres.length < 2) continue;
    const properties = Object.keys((JSON.parse(key) as Json).properties as Json).join(', ');
    problems.push(`an unnamed object (${properties}) is spelled out ${wheres.length} times (${wheres.slice(0, 3).join('; ')}): name it with .meta({ id })`);
  }
  return [...problems, ...moneyProblems(schemas)];
}

import { z } from 'zod';

/** A JSON Schema (draft 2020-12, which OpenAPI 3.1 uses) as a plain object. */
export type JsonSchema = Record<string, unknown>;
/** Whether a schema describes what a client sends (input) or what it gets (output); zod's defaults and transforms differ. */
export type Io = 'input' | 'output';

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

/** A zod schema as a JSON Schema without the $schema key; schemas with a `.meta({ id })` land in `$defs`. */
export function jsonSchemaOf(schema: z.ZodType, io: Io): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  delete json.$schema;
  return withoutFormatPatterns(json) as JsonSchema;
}

const DEFS_PREFIX = '#/$defs/';
const COMPONENTS_PREFIX = '#/components/schemas/';

/** Replaces every `#/$defs/<name>` reference with `#/components/schemas/<names(name)>`. */
function rewriteRefs(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(DEFS_PREFIX)) {
        const name = item.slice(DEFS_PREFIX.length);
        return [key, `${COMPONENTS_PREFIX}${names.get(name) ?? name}`];
      }
      return [key, rewriteRefs(item, names)];
    }),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The document's named schemas (ADR 0079): every zod schema with `.meta({ id })` becomes `#/components/schemas/<id>`
 * and is referenced wherever it is used, so a generated client has one `Listing` type, not one per answer. A schema
 * whose input form differs from its output form (a default, a transform) gets a second component, `<id>Input` (answers
are placed first, so the plain name is the answer's).
 */
export class SchemaComponents {
  // No prototype: an id such as `constructor` is a name like any other.
  readonly schemas: Record<string, JsonSchema> = Object.create(null) as Record<string, JsonSchema>;

  /** The JSON Schema of `schema` with its named parts moved into the components and referenced. */
  schemaOf(schema: z.ZodType, io: Io): JsonSchema {
    const { $defs, ...root } = jsonSchemaOf(schema, io) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const defs = $defs ?? {};
    // A name keeps its id unless the same id already stands for a different schema of the other direction; renaming
    // one may change the defs that reference it, so repeat until nothing more must move.
    const names = new Map(Object.keys(defs).map((name) => [name, name]));
    for (let changed = true; changed; ) {
      changed = false;
      for (const [name, def] of Object.entries(defs)) {
        const placed = names.get(name) as string;
        const existing = Object.hasOwn(this.schemas, placed) ? this.schemas[placed] : undefined;
        if (existing && !same(existing, rewriteRefs(def, names))) {
          const other = `${name}${io === 'input' ? 'Input' : 'Output'}`;
          if (placed === other) throw new Error(`Two different schemas are named ${name} in the API document`);
          names.set(name, other);
          changed = true;
        }
      }
    }
    for (const [name, def] of Object.entries(defs)) {
      const placed = names.get(name) as string;
      const rewritten = rewriteRefs(def, names) as JsonSchema;
      if (Object.hasOwn(this.schemas, placed) && !same(this.schemas[placed], rewritten)) throw new Error(`Two different schemas are named ${placed} in the API document`);
      this.schemas[placed] = rewritten;
    }
    return rewriteRefs(root, names) as JsonSchema;
  }

  /** The named schema a `$ref` points to, or undefined. */
  resolve(ref: string): JsonSchema | undefined {
    const name = ref.slice(COMPONENTS_PREFIX.length);
    return ref.startsWith(COMPONENTS_PREFIX) && Object.hasOwn(this.schemas, name) ? this.schemas[name] : undefined;
  }

  /** The schemas sorted by name, as the document lists them. */
  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}

const MAX_DEPTH = 32;

/**
 * JSON with every object's keys in UTF-16 code-unit order and no whitespace (the ordering of RFC 8785; numbers as
 * JSON.stringify writes them, which is RFC 8785's form). An event's signature covers this text: PostgreSQL's jsonb keeps
 * the outbox payload in an order of its own, so the text written is not the text read back (ADR 0065).
 */
export function canonicalJson(value: unknown, depth = 0): string {
  // No event of ours nests deeper; a message that does is refused, not walked until the stack runs out.
  if (depth > MAX_DEPTH) throw new Error(`nested deeper than ${MAX_DEPTH}`);
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined || typeof item === 'function' ? 'null' : canonicalJson(item, depth + 1))).join(',')}]`;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

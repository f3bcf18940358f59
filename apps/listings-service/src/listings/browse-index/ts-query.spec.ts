import { parseTsQuery } from './ts-query';

describe('reading a tsquery text (ADR 0081)', () => {
  it('reads terms, NOT, AND and OR with PostgreSQL\'s precedence', () => {
    expect(parseTsQuery("'coffe' & 'shop' | !'tea'")).toEqual({
      kind: 'or',
      left: { kind: 'and', left: { kind: 'term', lexeme: 'coffe' }, right: { kind: 'term', lexeme: 'shop' } },
      right: { kind: 'not', arg: { kind: 'term', lexeme: 'tea' } },
    });
    expect(parseTsQuery("!( 'a' | 'b' ) & 'c'")).toEqual({
      kind: 'and',
      left: { kind: 'not', arg: { kind: 'or', left: { kind: 'term', lexeme: 'a' }, right: { kind: 'term', lexeme: 'b' } } },
      right: { kind: 'term', lexeme: 'c' },
    });
  });

  it('reads quotes doubled and escaped inside a lexeme', () => {
    expect(parseTsQuery("'o''neil' & 'a\\\\b'")).toEqual({ kind: 'and', left: { kind: 'term', lexeme: "o'neil" }, right: { kind: 'term', lexeme: 'a\\b' } });
  });

  it('reads no lexemes as empty, and a phrase, prefix, weight or broken text as something only PostgreSQL decides', () => {
    expect(parseTsQuery('')).toBe('empty');
    expect(parseTsQuery("'red' <-> 'wine'")).toBeNull();
    expect(parseTsQuery("'red' <2> 'wine'")).toBeNull();
    expect(parseTsQuery("'cof':*")).toBeNull();
    expect(parseTsQuery("'cof':AB")).toBeNull();
    expect(parseTsQuery("'a' &")).toBeNull();
    expect(parseTsQuery("( 'a'")).toBeNull();
    expect(parseTsQuery("'a' 'b'")).toBeNull();
    expect(parseTsQuery("'unterminated")).toBeNull();
  });
});

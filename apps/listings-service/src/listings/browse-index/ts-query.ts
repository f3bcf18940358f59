/**
 * A PostgreSQL tsquery, read from its text form (what `websearch_to_tsquery(...)::text` prints), so the browse index
 * answers `search @@ query` itself (ADR 0081). Only what matching by lexemes alone decides is kept: a phrase (`<->`),
 * a prefix (`:*`) or a weight (`:A`) needs positions or weights the index does not hold, and reads as null, which
 * sends that search to PostgreSQL.
 */
export type TsQueryNode =
  | { kind: 'term'; lexeme: string }
  | { kind: 'not'; arg: TsQueryNode }
  | { kind: 'and' | 'or'; left: TsQueryNode; right: TsQueryNode };

/** What a tsquery text reads as: a tree, `empty` (no lexemes: matches nothing), or null (the index cannot decide it). */
export type ParsedTsQuery = TsQueryNode | 'empty' | null;

type Token = { type: 'term'; lexeme: string } | { type: '&' | '|' | '!' | '(' | ')' };

function tokens(text: string): Token[] | null {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ') {
      i++;
    } else if (c === "'") {
      // A quoted lexeme; a quote inside is doubled, a backslash escapes the next character.
      let lexeme = '';
      i++;
      for (;;) {
        if (i >= text.length) return null;
        if (text[i] === '\\' && i + 1 < text.length) {
          lexeme += text[i + 1];
          i += 2;
        } else if (text[i] === "'" && text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else if (text[i] === "'") {
          i++;
          break;
        } else {
          lexeme += text[i++];
        }
      }
      // A prefix or weight marker follows the quote: matching it needs more than the lexeme.
      if (text[i] === ':') return null;
      out.push({ type: 'term', lexeme });
    } else if (c === '&' || c === '|' || c === '!' || c === '(' || c === ')') {
      out.push({ type: c });
      i++;
    } else {
      // `<->`, `<N>` (a phrase) or anything unforeseen.
      return null;
    }
  }
  return out;
}

/** Reads a tsquery's text form: `|` binds loosest, then `&`, then `!` (a phrase has already been refused). */
export function parseTsQuery(text: string): ParsedTsQuery {
  const list = tokens(text);
  if (list === null) return null;
  if (list.length === 0) return 'empty';
  let at = 0;
  const peek = () => list[at]?.type;
  const fail = Symbol('fail');
  const primary = (): TsQueryNode => {
    const token = list[at++];
    if (!token) throw fail;
    if (token.type === 'term') return { kind: 'term', lexeme: token.lexeme };
    if (token.type === '!') return { kind: 'not', arg: primary() };
    if (token.type === '(') {
      const inner = either();
      if (list[at++]?.type !== ')') throw fail;
      return inner;
    }
    throw fail;
  };
  const both = (): TsQueryNode => {
    let left = primary();
    while (peek() === '&') {
      at++;
      left = { kind: 'and', left, right: primary() };
    }
    return left;
  };
  const either = (): TsQueryNode => {
    let left = both();
    while (peek() === '|') {
      at++;
      left = { kind: 'or', left, right: both() };
    }
    return left;
  };
  try {
    const tree = either();
    return at === list.length ? tree : null;
  } catch (error) {
    if (error === fail) return null;
    throw error;
  }
}

/** How many lexeme terms a tree has (each one a posting list to combine). */
export function termCount(node: TsQueryNode): number {
  if (node.kind === 'term') return 1;
  if (node.kind === 'not') return termCount(node.arg);
  return termCount(node.left) + termCount(node.right);
}

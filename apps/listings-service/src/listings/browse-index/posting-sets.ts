import type { TsQueryNode } from './ts-query';

/**
 * A set of slots, ascending; `negated` means every slot except these. Keeping a NOT as a complement until the end
 * means `coffee -tea` is a difference of two posting lists, never a list of every listing (ADR 0081).
 */
export interface SlotSet {
  slots: ArrayLike<number>;
  negated: boolean;
}

const EMPTY: number[] = [];

/** Slots in both ascending lists. */
export function intersect(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      out.push(a[i]);
      i++;
      j++;
    }
  }
  return out;
}

/** Slots in either ascending list, once. */
export function union(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else if (i >= a.length || b[j] < a[i]) out.push(b[j++]);
    else {
      out.push(a[i]);
      i++;
      j++;
    }
  }
  return out;
}

/** Slots of a that b lacks. */
export function difference(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    if (j >= b.length || b[j] !== a[i]) out.push(a[i]);
  }
  return out;
}

/** The slots a tsquery tree matches, from each lexeme's posting list (ascending slots). */
export function evaluate(node: TsQueryNode, postings: (lexeme: string) => ArrayLike<number> | undefined): SlotSet {
  switch (node.kind) {
    case 'term':
      return { slots: postings(node.lexeme) ?? EMPTY, negated: false };
    case 'not': {
      const inner = evaluate(node.arg, postings);
      return { slots: inner.slots, negated: !inner.negated };
    }
    case 'and': {
      const a = evaluate(node.left, postings);
      const b = evaluate(node.right, postings);
      if (!a.negated && !b.negated) return { slots: intersect(a.slots, b.slots), negated: false };
      if (!a.negated) return { slots: difference(a.slots, b.slots), negated: false };
      if (!b.negated) return { slots: difference(b.slots, a.slots), negated: false };
      return { slots: union(a.slots, b.slots), negated: true };
    }
    case 'or': {
      const a = evaluate(node.left, postings);
      const b = evaluate(node.right, postings);
      if (!a.negated && !b.negated) return { slots: union(a.slots, b.slots), negated: false };
      if (!a.negated) return { slots: difference(b.slots, a.slots), negated: true };
      if (!b.negated) return { slots: difference(a.slots, b.slots), negated: true };
      return { slots: intersect(a.slots, b.slots), negated: true };
    }
  }
}

import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('writes the same text for the same value whatever the order of its keys', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson({ a: { c: 'x', d: [1, { y: null, z: true }] }, b: 1 })).toBe(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' } }));
  });

  it('writes what JSON would keep: no undefined keys, strings and numbers as JSON writes them', () => {
    expect(canonicalJson({ a: undefined, b: 'é"\n', c: 1e21, d: 0.1, e: -0 })).toBe('{"b":"é\\"\\n","c":1e+21,"d":0.1,"e":0}');
    expect(canonicalJson([undefined, 'x'])).toBe('[null,"x"]');
    expect(canonicalJson(new Date('2026-12-06T00:00:00.000Z'))).toBe('"2026-12-06T00:00:00.000Z"');
    expect(JSON.parse(canonicalJson({ z: [{ b: 2, a: 1 }] }))).toEqual({ z: [{ a: 1, b: 2 }] });
  });
});

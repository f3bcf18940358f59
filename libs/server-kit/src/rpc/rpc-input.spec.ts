import { z } from 'zod';
import { AppError } from '../errors/app-error';
import { parseInput, rejectNulText } from './rpc-input';

describe('rejectNulText', () => {
  const issues = (value: unknown, where?: 'body' | 'query' | 'path') => {
    try {
      rejectNulText(value, where);
      return null;
    } catch (error) {
      return (error as AppError).detail;
    }
  };

  it('finds a NUL character anywhere in the input and says where', () => {
    expect(issues({ title: 'Hello\u0000World' })).toEqual([{ loc: ['body', 'title'], msg: 'Text cannot contain NUL characters', type: 'string_nul' }]);
    expect(issues({ listing: { methods: ['ok', 'b\u0000d'] } }, 'query')?.[0]).toMatchObject({ loc: ['query', 'listing', 'methods', 1] });
    expect(issues('\u0000', 'path')?.[0]).toMatchObject({ loc: ['path'] });
  });

  it('lets ordinary text, numbers and nesting through', () => {
    expect(issues({ title: 'Café & Co — 100%', price: 5, tags: ['a', { b: null }] })).toBeNull();
  });

  it('runs before every service parses a message', () => {
    expect(() => parseInput(z.object({ search: z.string() }), { search: 'a\u0000b' })).toThrow(AppError);
    expect(parseInput(z.object({ search: z.string() }), { search: 'ab' })).toEqual({ search: 'ab' });
  });
});

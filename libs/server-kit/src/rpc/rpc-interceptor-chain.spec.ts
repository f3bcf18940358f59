import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { lastValueFrom, map, Observable, of, throwError } from 'rxjs';
import { RpcInterceptorChain } from './rpc-interceptor-chain';

const context = {} as ExecutionContext;

describe('RpcInterceptorChain (ADR 0057)', () => {
  it('runs the interceptors in order around the handler, each on what the next answers', async () => {
    const seen: string[] = [];
    const tagging = (name: string): NestInterceptor => ({
      intercept: (_context, next) => {
        seen.push(`in ${name}`);
        return next.handle().pipe(map((value) => `${name}(${String(value)})`));
      },
    });
    // An interceptor may answer a promise of an observable, as Nest allows.
    const later: NestInterceptor = { intercept: async (_context, next) => next.handle() };
    const handler: CallHandler = { handle: () => (seen.push('handler'), of('answer')) };
    const answer = await lastValueFrom(new RpcInterceptorChain([tagging('a'), later, tagging('b')]).intercept(context, handler));
    expect(answer).toBe('a(b(answer))');
    expect(seen).toEqual(['in a', 'in b', 'handler']);
  });

  it('starts an interceptor only when its caller subscribes, and never the handler after a refusal', async () => {
    let started = 0;
    const counting: NestInterceptor = { intercept: (_context, next) => (started++, next.handle()) };
    const refusing: NestInterceptor = { intercept: () => throwError(() => new Error('refused')) };
    const handle = jest.fn(() => of('never'));
    const chained = new RpcInterceptorChain([refusing, counting]).intercept(context, { handle });
    expect(started).toBe(0);
    await expect(lastValueFrom(chained)).rejects.toThrow('refused');
    expect(started).toBe(0);
    expect(handle).not.toHaveBeenCalled();
  });

  it('lets a later interceptor and the handler run in the async context an earlier one opened', async () => {
    const storage = new AsyncLocalStorage<string>();
    const opening: NestInterceptor = {
      intercept: (_context, next) => new Observable((subscriber) => storage.run('request-1', () => next.handle().subscribe(subscriber))),
    };
    const waiting: NestInterceptor = { intercept: async (_context, next) => (await Promise.resolve(), next.handle()) };
    const handler: CallHandler = { handle: () => of(storage.getStore()) };
    expect(await lastValueFrom(new RpcInterceptorChain([opening, waiting]).intercept(context, handler))).toBe('request-1');
  });
});

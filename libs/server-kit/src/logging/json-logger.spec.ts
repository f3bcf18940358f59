import { JsonLogger } from './json-logger';
import { runWithRequestId } from './request-context';

describe('JsonLogger', () => {
  const capture = (minLevel: 'debug' | 'info' = 'info') => {
    const lines: string[] = [];
    return { lines, logger: new JsonLogger('auth-service', minLevel, (line) => lines.push(line)) };
  };

  it('writes one JSON line with service, level, context and the current request id', () => {
    const { lines, logger } = capture();
    runWithRequestId('req-12345678', () => logger.log('hello', 'AuthService'));
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'info', service: 'auth-service', context: 'AuthService', msg: 'hello', request_id: 'req-12345678' });
  });

  it('merges object messages and keeps error stacks', () => {
    const { lines, logger } = capture();
    logger.log({ msg: 'request', status: 201 });
    logger.error(new Error('boom'));
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'request', status: 201, request_id: null });
    expect(JSON.parse(lines[1])).toMatchObject({ level: 'error', msg: 'boom' });
    expect(JSON.parse(lines[1]).stack).toContain('Error: boom');
  });

  it('drops lines below its level', () => {
    const { lines, logger } = capture('info');
    logger.debug('quiet');
    logger.verbose('quieter');
    logger.warn('loud');
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['warn']);
  });
});

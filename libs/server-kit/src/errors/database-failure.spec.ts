import { Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-failure';
import { toErrorPayload } from './error.filter';

const pgError = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('database failures (ADR 0044)', () => {
  const logger = new Logger('test');
  beforeEach(() => {
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  });

  it.each([
    ['statement timeout', pgError('57014', 'canceling statement due to statement timeout')],
    ['lock timeout', pgError('55P03')],
    ['too many connections', pgError('53300')],
    ['connection failure', pgError('08006')],
    ['server shutting down', pgError('57P01')],
    ['deadlock', pgError('40P01')],
    ['refused', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['pool acquire timeout', new Error('timeout exceeded when trying to connect')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['terminated', new Error('Connection terminated unexpectedly')],
    ['wrapped by TypeORM', new QueryFailedError('SELECT 1', [], pgError('57014'))],
  ])('turns a %s into a 503 with a stable code', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(toErrorPayload(error, logger)).toEqual({ code: 'database_unavailable', status: 503, detail: expect.stringMatching(/try again/) });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it.each([
    ['unique violation', new QueryFailedError('INSERT', [], pgError('23505'))],
    ['syntax error', pgError('42601')],
    ['plain bug', new TypeError('x is undefined')],
  ])('leaves a %s a hidden 500', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(toErrorPayload(error, logger)).toEqual({ code: 'internal', status: 500, detail: 'Internal server error' });
  });
});

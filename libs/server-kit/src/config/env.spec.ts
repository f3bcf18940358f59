import { z } from 'zod';
import { ConfigError, checkSubjectSpaces, parseEnvOrThrow, serviceEnv } from './env';
import { generateSigningKeys } from '../identity/jwt-keys';
import { generateBusEnv } from '../bus/bus-keys';

describe('parseEnvOrThrow', () => {
  it('applies defaults (the public keys have none)', () => {
    expect(() => parseEnvOrThrow(serviceEnv, {})).toThrow(new ConfigError('JWT_PUBLIC_KEYS', 'is required but not set'));
    expect(() => parseEnvOrThrow(serviceEnv, { JWT_PUBLIC_KEYS: generateSigningKeys().JWT_PUBLIC_KEYS })).toThrow(new ConfigError('BUS_SIGNING_KEY', 'is required but not set'));
    const config = parseEnvOrThrow(serviceEnv, { JWT_PUBLIC_KEYS: generateSigningKeys().JWT_PUBLIC_KEYS, ...generateBusEnv('auth-service') });
    expect(config.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(config.EVENTS_STREAM).toBe('EVENTS');
    expect(config.METRICS_HOST).toBe('127.0.0.1');
  });

  it('names the variable that is missing', () => {
    expect(() => parseEnvOrThrow({ SOME_SECRET: z.string().min(32) }, {})).toThrow(
      new ConfigError('SOME_SECRET', 'is required but not set'),
    );
  });

  it('names the variable whose value is bad, with the reason', () => {
    try {
      parseEnvOrThrow(serviceEnv, { REDIS_URL: 'http://nope', HEALTH_PORT: '70000' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('REDIS_URL');
      expect((error as Error).message).toBe('Invalid configuration: REDIS_URL: must be a redis: or rediss:// URL');
    }
  });
});

describe('checkSubjectSpaces', () => {
  it('accepts the defaults and separate prefixes', () => {
    expect(() => checkSubjectSpaces({ NATS_SUBJECT_PREFIX: '', EVENTS_PREFIX: 'events' })).not.toThrow();
    expect(() => checkSubjectSpaces({ NATS_SUBJECT_PREFIX: 'rpc_a.', EVENTS_PREFIX: 'it_a' })).not.toThrow();
  });
  it('refuses request subjects inside the events stream', () => {
    expect(() => checkSubjectSpaces({ NATS_SUBJECT_PREFIX: 'it_a.', EVENTS_PREFIX: 'it_a' })).toThrow(/NATS_SUBJECT_PREFIX/);
    expect(() => checkSubjectSpaces({ NATS_SUBJECT_PREFIX: '', EVENTS_PREFIX: 'auth' })).toThrow(/NATS_SUBJECT_PREFIX/);
  });
});

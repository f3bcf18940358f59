import { natsTarget } from './nats-target';
import { parseEnvOrThrow, serviceEnv } from '../config/env';
import { generateSigningKeys } from '../identity/jwt-keys';
import { generateBusEnv } from '../bus/bus-keys';

describe('natsTarget (ADR 0035)', () => {
  it("takes a process's user and password out of NATS_URL, for every server of a cluster", () => {
    expect(natsTarget('nats://auth-service:N3x%40mple-pass_word@nats-1.internal:4222, nats://nats-2.internal:4222')).toEqual({
      servers: ['nats://nats-1.internal:4222', 'nats://nats-2.internal:4222'],
      user: 'auth-service',
      pass: 'N3x@mple-pass_word',
      inboxPrefix: '_INBOX.auth-service',
    });
  });

  it('connects with TLS to a tls:// URL, checked against the CA its ca parameter names', () => {
    expect(natsTarget('tls://gateway:secret-pass-1234@127.0.0.1:4333?ca=%2Fsrv%2Fdata%2Fnats-tls%2Fca.pem')).toEqual({
      servers: ['tls://127.0.0.1:4333'],
      user: 'gateway',
      pass: 'secret-pass-1234',
      inboxPrefix: '_INBOX.gateway',
      tls: { caFile: '/srv/data/nats-tls/ca.pem' },
    });
    expect(natsTarget('tls://nats.internal:4222')).toEqual({ servers: ['tls://nats.internal:4222'], tls: {} });
  });

  it('connects without a user when the URL names none', () => {
    expect(natsTarget('nats://127.0.0.1:4222')).toEqual({ servers: ['nats://127.0.0.1:4222'] });
  });
});

describe('NATS_URL', () => {
  const keys = generateSigningKeys().JWT_PUBLIC_KEYS;
  const bus = generateBusEnv('auth-service');
  const parse = (url: string) => parseEnvOrThrow(serviceEnv, { JWT_PUBLIC_KEYS: keys, ...bus, NATS_URL: url });

  it('accepts a random password and refuses a placeholder or a short one without repeating it', () => {
    expect(parse('nats://gateway:NqZ8kO1v-Yx2_pL7mW3rT9sB@nats:4222').NATS_URL).toContain('@nats:4222');
    for (const password of ['CHANGE_ME', 'short1A']) {
      let message = '';
      try {
        parse(`nats://gateway:${password}@nats:4222`);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Invalid configuration: NATS_URL: its password /);
      expect(message).not.toContain(password);
    }
  });
});

import { ConfigError } from './env';
import { natsIsOpen, redisIsOpen, refuseOpenInfra } from './open-infra';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The machine's NATS and Redis have no users: the case D25 refuses outside tests (ADR 0065). */
describe('refuseOpenInfra against the machine\'s open NATS and Redis', () => {
  it('tells an open server from one that is not there', async () => {
    expect(await natsIsOpen(NATS_URL)).toBe(true);
    expect(await redisIsOpen(REDIS_URL)).toBe(true);
    expect(await natsIsOpen('nats://127.0.0.1:1')).toBe(false);
    expect(await redisIsOpen('redis://127.0.0.1:1')).toBe(false);
  });

  it('stops a run that is no test, unless ALLOW_OPEN_INFRA says to run there anyway', async () => {
    const config = { NATS_URL, REDIS_URL, ALLOW_OPEN_INFRA: false };
    await expect(refuseOpenInfra(config, { NODE_ENV: 'production' })).rejects.toEqual(
      new ConfigError('NATS_URL', 'its server lets anyone in without credentials; give it users and passwords (npm start starts servers of its own that have them), or set ALLOW_OPEN_INFRA=true to run on it anyway'),
    );
    await expect(refuseOpenInfra({ ...config, NATS_URL: 'nats://127.0.0.1:1' }, {})).rejects.toMatchObject({ variable: 'REDIS_URL' });
    await expect(refuseOpenInfra({ ...config, ALLOW_OPEN_INFRA: true }, { NODE_ENV: 'production' })).resolves.toBeUndefined();
    await expect(refuseOpenInfra(config, { NODE_ENV: 'test' })).resolves.toBeUndefined();
  });
});

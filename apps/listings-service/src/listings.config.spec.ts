import { ConfigError } from '@market/server-kit';
import { checkVerificationSettings } from './listings.config';

describe('verification settings (ADR 0084)', () => {
  const refused = (config: Parameters<typeof checkVerificationSettings>[0], nodeEnv: string) => {
    try {
      checkVerificationSettings(config, nodeEnv);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    }
  };

  it('refuses the sandbox and TEST MODE figures in production, naming the variable', () => {
    expect(refused({ VERIFICATION_SANDBOX: 'on', VERIFICATION_TEST_MODE: false }, 'production')).toContain('VERIFICATION_SANDBOX');
    expect(refused({ VERIFICATION_SANDBOX: 'off', VERIFICATION_TEST_MODE: true }, 'production')).toContain('VERIFICATION_TEST_MODE');
    expect(refused({ VERIFICATION_SANDBOX: 'off', VERIFICATION_TEST_MODE: false }, 'production')).toBeNull();
  });

  it('allows both outside production (npm start, tests)', () => {
    expect(refused({ VERIFICATION_SANDBOX: 'on', VERIFICATION_TEST_MODE: true }, 'development')).toBeNull();
    expect(refused({ VERIFICATION_SANDBOX: 'on', VERIFICATION_TEST_MODE: true }, 'test')).toBeNull();
  });
});

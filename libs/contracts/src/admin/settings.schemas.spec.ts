import { DEFAULT_SETTINGS, PlatformSettingsSchema, SaveSettingsSchema } from './settings.schemas';

describe('PlatformSettingsSchema', () => {
  it.each([0, 0.29, 0.57, 1.13, 2.5, 2.55, 4.35, 50])('takes a %d%% success fee (two decimals, whatever floating point makes of it)', (fee) => {
    expect(PlatformSettingsSchema.safeParse({ ...DEFAULT_SETTINGS, success_fee: fee }).success).toBe(true);
  });

  it.each([2.555, -1, 50.01, Number.NaN])('refuses a %d%% success fee', (fee) => {
    expect(PlatformSettingsSchema.safeParse({ ...DEFAULT_SETTINGS, success_fee: fee }).success).toBe(false);
  });

  it('names the field and its limit', () => {
    const result = PlatformSettingsSchema.safeParse({ ...DEFAULT_SETTINGS, listing_fee: 100_001, smtp_port: 0 });
    expect(result.error?.issues.map((i) => i.message)).toEqual(['SMTP port must be 1 to 65535', 'Listing fee cannot exceed $100,000']);
  });
});

describe('SaveSettingsSchema', () => {
  it('takes the settings as GET answered them and drops the read-only smtp_password_set', () => {
    const result = SaveSettingsSchema.safeParse({ ...DEFAULT_SETTINGS, smtp_password_set: true });
    expect(result.success).toBe(true);
    expect(result.data).toEqual(DEFAULT_SETTINGS);
    expect(result.data).not.toHaveProperty('smtp_password_set');
  });

  it('still refuses any other unknown field and a partial object', () => {
    expect(SaveSettingsSchema.safeParse({ ...DEFAULT_SETTINGS, is_admin: true }).success).toBe(false);
    expect(SaveSettingsSchema.safeParse({ smtp_host: 'x' }).success).toBe(false);
  });
});

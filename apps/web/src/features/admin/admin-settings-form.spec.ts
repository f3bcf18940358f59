import type { PlatformSettingsView } from '@market/contracts';
import { parseSettingsForm, toSettingsForm } from './admin-settings-form';

const stored: PlatformSettingsView = {
  smtp_host: 'smtp.example.com',
  smtp_port: 587,
  smtp_username: 'mailer',
  smtp_password: '',
  smtp_password_set: true,
  listing_fee: 29,
  success_fee: 5,
  featured_fee: 99,
  auto_approve: false,
  allow_registration: true,
  email_notifications: true,
  anti_sniping_minutes: 10,
  require_verified_email: true,
  inspection_days: 7,
};

describe('the Settings form (SPEC §3, D22)', () => {
  it('posts back what is stored when nothing was changed, the inspection period included', () => {
    const parsed = parseSettingsForm(toSettingsForm(stored));
    const { smtp_password_set: _readOnly, ...settings } = stored;
    expect(parsed).toEqual({ ok: true, settings });
  });

  it('shows the default inspection period (3 days) when the server sends none', () => {
    const { inspection_days: _none, ...older } = stored;
    expect(toSettingsForm(older).inspection_days).toBe('3');
  });

  it('saves a changed inspection period as a number', () => {
    const parsed = parseSettingsForm({ ...toSettingsForm(stored), inspection_days: '0' });
    expect(parsed.ok && parsed.settings.inspection_days).toBe(0);
  });

  it.each([
    ['', 'Inspection period must be a number'],
    ['31', 'Inspection period cannot exceed 30 days'],
    ['-1', 'Inspection period cannot be negative'],
    ['1.5', 'Inspection period must be whole days'],
  ])('refuses an inspection period of "%s": %s', (value, error) => {
    expect(parseSettingsForm({ ...toSettingsForm(stored), inspection_days: value })).toEqual({ ok: false, error });
  });

  it('still refuses an empty soft close as it did', () => {
    const parsed = parseSettingsForm({ ...toSettingsForm(stored), anti_sniping_minutes: ' ' });
    expect(parsed.ok).toBe(false);
  });
});

import { useEffect, useState, type FormEvent } from 'react';
import { MAX_INSPECTION_DAYS } from '@market/domain';
import { errorDetail } from '../../lib/error-detail';
import { useSaveSettingsMutation, useSettingsQuery } from './admin.api';
import { parseSettingsForm, toSettingsForm, type SettingsForm } from './admin-settings-form';

/** Admin Settings tab: email, fees and platform toggles, saved as one object (SPEC §2, §3, §8). */
export function AdminSettingsTab() {
  const { data, isLoading, isError } = useSettingsQuery();
  const [save, { isLoading: saving }] = useSaveSettingsMutation();
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [message, setMessage] = useState<{ text: string; ms: number } | null>(null);

  useEffect(() => {
    if (data) setForm(toSettingsForm(data));
  }, [data]);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), message.ms);
    return () => clearTimeout(timer);
  }, [message]);

  if (isLoading || (!form && !isError)) return <p className="muted">Loading settings...</p>;
  if (isError || !form || !data) return <div className="alert alert-error">Could not load the settings.</div>;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseSettingsForm(form);
    if (!parsed.ok) {
      setMessage({ text: `❌ Error saving settings: ${parsed.error}`, ms: 6000 });
      return;
    }
    try {
      const saved = await save(parsed.settings).unwrap();
      setForm(toSettingsForm(saved));
      setMessage({ text: '✅ Settings saved successfully!', ms: 4000 });
    } catch (failure) {
      setMessage({ text: `❌ Error saving settings: ${errorDetail(failure, 'Unknown error')}`, ms: 6000 });
    }
  };

  const text = (key: 'smtp_host' | 'smtp_username' | 'smtp_password', label: string, placeholder = '', type = 'text') => (
    <label className="field">
      <span>{label}</span>
      <input name={key} type={type} placeholder={placeholder} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </label>
  );
  const number = (key: 'smtp_port' | 'listing_fee' | 'success_fee' | 'featured_fee' | 'anti_sniping_minutes' | 'inspection_days', label: string, placeholder: string, step = '1', max?: number) => (
    <label className="field">
      <span>{label}</span>
      <input name={key} type="number" inputMode="decimal" min={key === 'smtp_port' ? '1' : '0'} max={max} step={step} placeholder={placeholder} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </label>
  );
  const toggle = (key: 'auto_approve' | 'allow_registration' | 'email_notifications' | 'require_verified_email', label: string, hint: string) => (
    <label className="checkbox toggle">
      <input name={key} type="checkbox" checked={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.checked })} />
      <span>
        <strong>{label}</strong>
        <br />
        <small className="muted">{hint}</small>
      </span>
    </label>
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      {message && (
        <div className={`alert ${message.text.includes('✅') ? 'alert-success' : 'alert-error'}`} role="status">
          {message.text}
        </div>
      )}
      <div className="settings-grid">
        <section className="card">
          <h2>Email</h2>
          <p className="muted">Outgoing mail server. Empty host: the server&apos;s own SMTP configuration is used, or emails are logged.</p>
          {text('smtp_host', 'SMTP host', 'smtp.example.com')}
          {number('smtp_port', 'SMTP port', '587')}
          {text('smtp_username', 'SMTP username')}
          {text('smtp_password', 'SMTP password', data.smtp_password_set ? '•••••••• (unchanged)' : '', 'password')}
        </section>
        <section className="card">
          <h2>Fees</h2>
          <p className="muted">
            Whole US dollars; the success fee is a percentage of the sale, applied to invoices created after you save. Listing and featured fees are
            recorded but not charged yet.
          </p>
          {number('listing_fee', 'Listing fee ($)', '29')}
          {number('success_fee', 'Success fee (%)', '5', '0.01')}
          {number('featured_fee', 'Featured fee ($)', '99')}
        </section>
        <section className="card">
          <h2>Platform</h2>
          {toggle('auto_approve', 'Auto-approve listings', 'New listings go live without review.')}
          {toggle('allow_registration', 'Allow registration', 'When off, sign-up answers "Registration is currently closed".')}
          {toggle('email_notifications', 'Email notifications', 'When off, only verification and password-reset emails are sent.')}
          {toggle(
            'require_verified_email',
            'Require a verified email to bid, buy and sell',
            'When on, members must verify their email address before they bid, make offers, buy now or list a website.',
          )}
          {number('anti_sniping_minutes', 'Soft close (minutes)', '10')}
          <small className="muted">A leading bid in an auction&apos;s final minutes moves its end to this many minutes later; 0 turns it off.</small>
          {number('inspection_days', 'Inspection period (days)', '3', '1', MAX_INSPECTION_DAYS)}
          <small className="muted">
            Once the transfer is verified, the buyer has this many days to open a dispute before the funds go to the seller by themselves (0 to{' '}
            {MAX_INSPECTION_DAYS}; 0 releases them as soon as the transfer is verified).
          </small>
        </section>
      </div>
      <button type="submit" className="btn btn-primary" disabled={saving}>
        {saving ? 'Saving...' : 'Save Settings'}
      </button>
    </form>
  );
}

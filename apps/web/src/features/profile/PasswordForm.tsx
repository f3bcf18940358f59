import { useState, type FormEvent } from 'react';
import { errorDetail } from '../../lib/error-detail';
import { writeToken } from '../../lib/storage-keys';
import { useChangePasswordMutation } from './profile.api';
import { NoticeBox, type Notice } from './NoticeBox';

/** The change-password form; every other session ends and this tab keeps going on the fresh token. */
export function PasswordForm() {
  const [form, setForm] = useState({ current: '', next: '', confirm: '' });
  const [notice, setNotice] = useState<Notice>(null);
  const [change, { isLoading }] = useChangePasswordMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (form.next !== form.confirm) return setNotice({ kind: 'error', text: 'New passwords do not match' });
    try {
      const result = await change({ current_password: form.current, new_password: form.next }).unwrap();
      // Every other session ended; this tab continues with the fresh token.
      writeToken(result.access_token);
      setForm({ current: '', next: '', confirm: '' });
      setNotice({ kind: 'success', text: result.message });
    } catch (failure) {
      setNotice({ kind: 'error', text: errorDetail(failure, 'Error changing password') });
    }
  };

  const field = (key: keyof typeof form, label: string, autoComplete: string) => (
    <label className="field">
      <span>{label}</span>
      <input name={`password_${key}`} type="password" autoComplete={autoComplete} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </label>
  );

  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-label="Change password">
      <h2>Change password</h2>
      <NoticeBox notice={notice} />
      {field('current', 'Current password', 'current-password')}
      {field('next', 'New password', 'new-password')}
      {field('confirm', 'Confirm new password', 'new-password')}
      <button type="submit" className="btn btn-primary" disabled={isLoading}>
        {isLoading ? 'Changing...' : 'Change Password'}
      </button>
    </form>
  );
}

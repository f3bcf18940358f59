import { useState, type FormEvent } from 'react';
import type { UserDto } from '@market/contracts';
import { useAppDispatch } from '../../lib/store-hooks';
import { errorDetail } from '../../lib/error-detail';
import { userUpdated } from '../../session/session.slice';
import { useUpdateProfileMutation } from './profile.api';
import { NoticeBox, type Notice } from './NoticeBox';

/** True when the form's address is another account key than the account's (compared as the server does). */
export function emailEdited(current: string, typed: string): boolean {
  return typed.trim().toLowerCase() !== current.trim().toLowerCase();
}

/** The personal details form; a new email asks for the current password (ADR 0034). */
export function ProfileForm({ user }: { user: UserDto }) {
  const dispatch = useAppDispatch();
  const [form, setForm] = useState({
    name: user.name ?? '',
    email: user.email,
    bio: user.bio ?? '',
    website: user.website ?? '',
    phone: user.phone ?? '',
    location: user.location ?? '',
  });
  const [password, setPassword] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const [save, { isLoading }] = useUpdateProfileMutation();
  // A new email needs the current password (ADR 0034); other fields change without it.
  const changingEmail = emailEdited(user.email, form.email);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.name.trim() || !form.email.trim()) return setNotice({ kind: 'error', text: 'Name and email are required' });
    if (changingEmail && !password) return setNotice({ kind: 'error', text: 'Enter your current password to change your email' });
    try {
      const updated = await save(changingEmail ? { ...form, current_password: password } : form).unwrap();
      dispatch(userUpdated(updated));
      setPassword('');
      setNotice({
        kind: 'success',
        text: changingEmail
          ? 'Profile updated. Check your inbox to verify your new email address. Your other sessions have been logged out, and your old address has a link to undo the change.'
          : updated.email_verified
            ? 'Profile updated successfully!'
            : 'Profile updated. Check your inbox to verify your email address.',
      });
    } catch (failure) {
      setNotice({ kind: 'error', text: errorDetail(failure, 'Error updating profile') });
    }
  };

  const field = (key: keyof typeof form, label: string, type = 'text') => (
    <label className="field">
      <span>{label}</span>
      <input name={key} type={type} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </label>
  );

  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-label="Profile">
      <h2>Profile</h2>
      <NoticeBox notice={notice} />
      {field('name', 'Name')}
      {field('email', 'Email', 'email')}
      {changingEmail && (
        <>
          <label className="field">
            <span>Current password</span>
            <input
              name="current_password"
              type="password"
              autoComplete="current-password"
              value={password}
              aria-describedby="email-change-note"
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <p id="email-change-note" className="field-hint email-change-note">
            Changing your email needs your password. Your other sessions will be logged out, and we will email {user.email} a link to undo the change.
          </p>
        </>
      )}
      <label className="field">
        <span>Bio</span>
        <textarea name="bio" rows={4} value={form.bio} onChange={(e) => setForm({ ...form, bio: e.target.value })} />
      </label>
      {field('website', 'Website', 'url')}
      {field('phone', 'Phone', 'tel')}
      {field('location', 'Location')}
      <button type="submit" className="btn btn-primary" disabled={isLoading}>
        {isLoading ? 'Saving...' : 'Save Profile'}
      </button>
    </form>
  );
}

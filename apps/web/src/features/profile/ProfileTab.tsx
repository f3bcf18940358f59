import { useState, type FormEvent } from 'react';
import type { UserDto } from '@market/contracts';
import { useAppDispatch } from '../../lib/store-hooks';
import { errorDetail } from '../../lib/error-detail';
import { writeToken } from '../../lib/storage-keys';
import { readImpersonation } from '../../lib/impersonation';
import { userUpdated } from '../../session/session.slice';
import { useChangePasswordMutation, useUpdateProfileMutation } from './profile.api';
import { useResendVerificationMutation } from '../../api/verification.api';
import { SessionsSection } from './SessionsSection';
import { PaymentMethodSection } from './PaymentMethodSection';

type Notice = { kind: 'success' | 'error'; text: string } | null;

function NoticeBox({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <div className={`alert ${notice.kind === 'success' ? 'alert-success' : 'alert-error'}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.text}
    </div>
  );
}

/** True when the form's address is another account key than the account's (compared as the server does). */
export function emailEdited(current: string, typed: string): boolean {
  return typed.trim().toLowerCase() !== current.trim().toLowerCase();
}

/**
 * Profile tab: personal details, email verification, the saved card (ADR 0041), the password and the login sessions
 * (SPEC §2, §5, ADR 0030).
 * While an admin impersonates, the sessions and the saved card are the user's own business and are not shown.
 */
export function ProfileTab({ user, impersonating = readImpersonation() !== null }: { user: UserDto; impersonating?: boolean }) {
  return (
    <>
      <div className="two-col">
        <ProfileForm user={user} />
        <div>
          <EmailStatus user={user} />
          {!impersonating && <PaymentMethodSection />}
          <PasswordForm />
        </div>
      </div>
      {!impersonating && <SessionsSection />}
    </>
  );
}

function ProfileForm({ user }: { user: UserDto }) {
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

function EmailStatus({ user }: { user: UserDto }) {
  const [resend, { isLoading }] = useResendVerificationMutation();
  const [notice, setNotice] = useState<Notice>(null);
  if (user.email_verified) {
    return (
      <div className="card" style={{ marginBottom: '1.5rem' }}>
        <h2>Email</h2>
        <p>
          <span className="badge badge-green">Verified</span> {user.email}
        </p>
      </div>
    );
  }
  return (
    <div className="card" style={{ marginBottom: '1.5rem' }}>
      <h2>Email</h2>
      <p>
        <span className="badge badge-gray">Not verified</span> {user.email}
      </p>
      <NoticeBox notice={notice} />
      <button
        type="button"
        className="btn btn-secondary"
        disabled={isLoading}
        onClick={async () => {
          try {
            setNotice({ kind: 'success', text: (await resend().unwrap()).message });
          } catch (failure) {
            setNotice({ kind: 'error', text: errorDetail(failure, 'Could not send the verification email') });
          }
        }}
      >
        Resend verification email
      </button>
    </div>
  );
}

function PasswordForm() {
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

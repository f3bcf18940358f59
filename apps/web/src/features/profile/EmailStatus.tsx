import { useState } from 'react';
import type { UserDto } from '@market/contracts';
import { errorDetail } from '../../lib/error-detail';
import { useResendVerificationMutation } from '../../api/verification.api';
import { NoticeBox, type Notice } from './NoticeBox';

/** Whether the account's email is verified, with a button to send the link again when it is not. */
export function EmailStatus({ user }: { user: UserDto }) {
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

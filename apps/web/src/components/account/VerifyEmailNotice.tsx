import { useState } from 'react';
import { Link } from 'react-router-dom';
import { errorDetail } from '../../lib/error-detail';

/**
 * Says why the member cannot commit yet, before they try (ADR 0037), and sends the verification link again on a press
 * with `resend` (the api's useResendVerification); the profile shows the address it goes to.
 */
export function VerifyEmailNotice({ reason, resend, sending }: { reason: string; resend: () => Promise<string>; sending: boolean }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async () => {
    try {
      setResult({ ok: true, text: await resend() });
    } catch (failure) {
      setResult({ ok: false, text: errorDetail(failure, 'Could not send the verification email. Please try again.') });
    }
  };
  return (
    <div className="alert alert-warning panel-notice" role="note" data-testid="verify-email-notice">
      <p>
        <strong>{reason}</strong>
      </p>
      <p>
        Open the link in the email we sent you, then come back. <Link to="/dashboard?tab=profile">Your profile</Link> shows the address we sent it to.
      </p>
      <button type="button" className="btn btn-secondary" onClick={send} disabled={sending}>
        {sending ? 'Sending...' : 'Send the verification link again'}
      </button>
      {result && (
        <p className={result.ok ? 'muted' : 'field-error'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </p>
      )}
    </div>
  );
}

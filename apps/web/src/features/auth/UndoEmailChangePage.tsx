import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../lib/store-hooks';
import { errorDetail } from '../../lib/error-detail';
import { usePageMeta } from '../../lib/page-meta';
import { startSession } from '../../session/session.slice';
import { useUndoEmailChangeMutation } from './auth.api';
import { ForgotPasswordModal } from './ForgotPasswordModal';

export const NO_UNDO_TOKEN = 'No undo token provided. Please check the link in your email.';

type State = { kind: 'ready' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

/**
 * /undo-email-change?token=: the link mailed to the old address after an email change (ADR 0034). It acts only on a
 * press (mail scanners open links), then asks for a new password: the undo retired the old one.
 */
export function UndoEmailChangePage() {
  usePageMeta({ title: 'Undo an email change' });
  const [params] = useSearchParams();
  const token = params.get('token');
  const dispatch = useAppDispatch();
  const [undo, { isLoading }] = useUndoEmailChangeMutation();
  const [state, setState] = useState<State>(token ? { kind: 'ready' } : { kind: 'error', message: NO_UNDO_TOKEN });
  const [forgotOpen, setForgotOpen] = useState(false);

  const onUndo = async () => {
    if (!token) return;
    try {
      const result = await undo({ token }).unwrap();
      setState({ kind: 'done', message: result.message });
      // Every session of the account ended: a session this browser holds learns it now, not at its next click.
      void dispatch(startSession());
    } catch (failure) {
      setState({ kind: 'error', message: errorDetail(failure, 'Could not undo the change. Please try again.') });
    }
  };

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>Undo an email change</h1>
        {state.kind === 'ready' && (
          <>
            <p>The email address of your Site Market account was changed. If you did not do this, undo it here:</p>
            <ul>
              <li>your account gets this address back;</li>
              <li>every device logged in to it is logged out;</li>
              <li>your password stops working, and you choose a new one.</li>
            </ul>
            <button type="button" className="btn btn-primary btn-block" onClick={() => void onUndo()} disabled={isLoading}>
              {isLoading ? 'Undoing...' : 'Undo the email change'}
            </button>
          </>
        )}
        {state.kind === 'done' && (
          <>
            <div className="alert alert-success" role="status">
              {state.message}
            </div>
            <p>Choose a new password now: we will email a reset link to this address.</p>
            <button type="button" className="btn btn-primary btn-block" onClick={() => setForgotOpen(true)}>
              Reset my password
            </button>
          </>
        )}
        {state.kind === 'error' && (
          <>
            <div className="alert alert-error" role="alert">
              {state.message}
            </div>
            <p>
              Need help? <Link to="/contact">Contact support</Link>.
            </p>
          </>
        )}
        <p className="auth-switch">
          <Link to="/login">Back to login</Link>
        </p>
      </div>
      {forgotOpen && <ForgotPasswordModal onClose={() => setForgotOpen(false)} />}
    </div>
  );
}

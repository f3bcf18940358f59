import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { UserSession } from '@market/contracts';
import { useAppDispatch } from '../../lib/store-hooks';
import { LoadError, LoadingState } from '../../components/feedback/QueryState';
import { deviceSummary } from '../../lib/device-summary';
import { errorDetail } from '../../lib/error-detail';
import { logout } from '../../session/session.slice';
import { useRevokeAllSessionsMutation, useRevokeSessionMutation, useSessionsQuery } from './profile.api';
import './profile.css';

export const LOG_OUT_EVERYWHERE_QUESTION =
  'Log out everywhere? Every session of your account ends, this one included, and you will need to log in again.';

type Notice = { kind: 'success' | 'error'; text: string } | null;

/** A moment as people read it in their own locale, e.g. "25 Nov 2026, 14:05". */
function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** This device first, then the most recently used. */
export function orderSessions(sessions: readonly UserSession[]): UserSession[] {
  return [...sessions].sort((a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at));
}

/**
 * The Profile tab's Sessions (ADR 0030): where the account is logged in, a Log out for each other session and Log out
 * everywhere, which ends this one too and returns to the login page.
 */
export function SessionsSection() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data, error, isLoading, isError, refetch } = useSessionsQuery();
  const [revoke] = useRevokeSessionMutation();
  const [revokeAll, { isLoading: endingAll }] = useRevokeAllSessionsMutation();
  const [ending, setEnding] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const endOne = async (session: UserSession) => {
    setEnding(session.id);
    try {
      setNotice({ kind: 'success', text: (await revoke(session.id).unwrap()).message });
    } catch (failure) {
      setNotice({ kind: 'error', text: errorDetail(failure, 'Could not log that session out') });
    } finally {
      setEnding(null);
    }
  };

  const endAll = async () => {
    if (!window.confirm(LOG_OUT_EVERYWHERE_QUESTION)) return;
    try {
      await revokeAll().unwrap();
    } catch (failure) {
      // A 401: this session had already ended, which is where this was going anyway.
      if ((failure as { status?: unknown }).status !== 401) {
        setNotice({ kind: 'error', text: errorDetail(failure, 'Could not log out everywhere') });
        return;
      }
    }
    dispatch(logout());
    navigate('/login');
  };

  const sessions = data ? orderSessions(data.sessions) : [];
  return (
    <section className="card sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p className="muted">Where your account is logged in. If you do not recognise a session, log it out and change your password.</p>
      {notice && (
        <div className={`alert ${notice.kind === 'success' ? 'alert-success' : 'alert-error'}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </div>
      )}
      {isLoading ? (
        <LoadingState text="Loading your sessions..." />
      ) : isError ? (
        <LoadError onRetry={() => void refetch()}>Could not load your sessions: {errorDetail(error, 'please try again.')}</LoadError>
      ) : sessions.length === 0 ? (
        <p className="muted" data-testid="sessions-empty">
          No active sessions.
        </p>
      ) : (
        <ul className="session-list">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} busy={ending === session.id} onEnd={() => void endOne(session)} />
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-danger" onClick={() => void endAll()} disabled={endingAll}>
        {endingAll ? 'Logging out...' : 'Log out everywhere'}
      </button>
    </section>
  );
}

function SessionRow({ session, busy, onEnd }: { session: UserSession; busy: boolean; onEnd: () => void }) {
  const device = deviceSummary(session.device);
  return (
    <li className="session-item" data-testid="session-row">
      <div className="session-facts">
        <div className="session-device">
          <strong>{device}</strong>
          {session.current && <span className="badge badge-green">This device</span>}
        </div>
        <div className="muted">{session.address ?? 'Unknown address'}</div>
        <dl className="session-times">
          <dt>Started</dt>
          <dd>
            <time dateTime={session.created_at}>{when(session.created_at)}</time>
          </dd>
          <dt>Last active</dt>
          <dd>
            <time dateTime={session.last_seen_at}>{when(session.last_seen_at)}</time>
          </dd>
        </dl>
      </div>
      {!session.current && (
        <button type="button" className="btn btn-secondary btn-tiny" onClick={onEnd} disabled={busy}>
          {busy ? 'Logging out...' : 'Log out'}
          <span className="visually-hidden">
            {' '}
            {device}
            {session.address ? ` (${session.address})` : ''}
          </span>
        </button>
      )}
    </li>
  );
}

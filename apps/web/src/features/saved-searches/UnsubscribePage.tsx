import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useUnsubscribeMutation } from '../../api/saved-searches.api';
import { errorDetail } from '../../lib/error-detail';
import { usePageMeta } from '../../lib/page-meta';
import './saved-searches.css';

/**
 * /unsubscribe/{token}, the link in an alert email (ADR 0074). Opening it stops nothing: mail scanners open links, so
 * the reader presses a button; mail clients use the List-Unsubscribe header's one-click POST instead.
 */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  usePageMeta({ title: 'Stop alert emails', noindex: true });
  const [unsubscribe, { data, error, isLoading }] = useUnsubscribeMutation();
  const [asked, setAsked] = useState(false);
  // The token says what it stops: a saved search's alerts (s-) or the reminders before watched auctions end (w-).
  const reminders = token.startsWith('w-');

  return (
    <div className="container section unsubscribe-page">
      <h1>Stop alert emails</h1>
      {data ? (
        <div className="alert alert-success" role="status">
          {data.message}.
        </div>
      ) : (
        <>
          <p>
            {reminders
              ? 'You will no longer get an email the day before an auction on your watchlist ends. Your watchlist stays as it is.'
              : 'You will no longer get emails about new listings for this saved search. The search itself stays until you delete it.'}
          </p>
          {error && (
            <p className="alert alert-error" role="alert">
              {errorDetail(error, 'Could not stop the alerts, please try again')}
            </p>
          )}
          <button
            type="button"
            className="btn btn-primary"
            disabled={isLoading || (asked && !error)}
            onClick={() => {
              setAsked(true);
              void unsubscribe(token);
            }}
          >
            {isLoading ? 'Stopping...' : 'Stop these emails'}
          </button>
        </>
      )}
      <p className="muted">
        {reminders ? (
          <>
            Signed in? Turn them on again in your <Link to="/dashboard?tab=watchlist">Watchlist</Link>.
          </>
        ) : (
          <>
            Signed in? Manage every search under <Link to="/dashboard?tab=saved-searches">Saved searches</Link>.
          </>
        )}
      </p>
    </div>
  );
}

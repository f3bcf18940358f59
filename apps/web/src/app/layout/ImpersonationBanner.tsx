import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { api } from '../../lib/api';
import { endImpersonation, readImpersonation } from '../../lib/impersonation';
import { startSession } from '../../session/session.slice';
import { useStopImpersonationMutation } from '../../session/session.api';
import { useInBrowser } from '../../lib/use-in-browser';

/** The orange banner while an admin views the site as a user, with 'Return to Admin' (SPEC §2, §4). */
export function ImpersonationBanner() {
  const user = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [stop, { isLoading }] = useStopImpersonationMutation();
  // Browser storage says who is viewed: read once hydrated, never on the server (ADR 0072).
  const impersonation = useInBrowser() ? readImpersonation() : null;
  if (!impersonation) return null;

  const returnToAdmin = async () => {
    // The stop is audited; if the impersonation token already expired, returning still has to work.
    await stop().unwrap().catch(() => undefined);
    const next = endImpersonation();
    dispatch(api.util.resetApiState());
    await dispatch(startSession());
    navigate(next);
  };

  const viewed = user?.username ?? impersonation.targetUser.username;
  return (
    <div className="impersonation-banner" role="status" data-testid="impersonation-banner">
      <div className="container">
        <span>
          Viewing as <strong>{viewed}</strong> · signed in as admin <strong>{impersonation.originalAdmin.username}</strong>
        </span>
        <button type="button" className="btn btn-small" onClick={returnToAdmin} disabled={isLoading}>
          Return to Admin
        </button>
      </div>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { logout } from '../../session/session.slice';
import { useEndSessionMutation } from '../../session/session.api';
import { readOriginalAdminToken } from '../../lib/impersonation';
import { EXTERNAL_LINKS } from '../../lib/site-links';
import { UNREAD_POLL_MS, useUnreadCountQuery } from '../../api/messages.api';
import { unreadBadge, unreadPhrase } from '../../components/messages/unread';

/** Site header: navigation for guests and users, and a menu for small screens. */
export function Header() {
  const { user, status } = useAppSelector((state) => state.session);
  const pending = status === 'loading' ? 'session-pending' : '';
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // The same query as the dashboard's tab badge, so one request a minute serves both.
  const { data: unread } = useUnreadCountQuery(undefined, { skip: !user, pollingInterval: UNREAD_POLL_MS });
  const unreadCount = user ? (unread?.unread_count ?? 0) : 0;
  const badge = unreadBadge(unreadCount);

  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  const [endSession, { isLoading: loggingOut }] = useEndSessionMutation();

  // The server ends the session at once on every gateway and service (ADR 0030), and the admin's own session kept
  // aside during an impersonation with it; when it cannot be reached (or already refused the token), this browser
  // forgets the session all the same.
  const onLogout = async () => {
    const adminToken = readOriginalAdminToken();
    await Promise.allSettled([endSession().unwrap(), ...(adminToken ? [endSession(adminToken).unwrap()] : [])]);
    dispatch(logout());
    navigate('/');
  };

  return (
    <header className="site-header">
      <div className="container header-bar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">S</span>
          <span className="brand-name">Site Market</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          aria-label={`${menuOpen ? 'Close menu' : 'Open menu'}${badge ? `, ${unreadPhrase(unreadCount)}` : ''}`}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span />
          <span />
          <span />
          {badge && !menuOpen && <i className="menu-toggle-dot" aria-hidden="true" />}
        </button>
        <nav id="main-nav" className={`main-nav${menuOpen ? ' open' : ''}`} aria-label="Main">
          <NavLink to="/browse">Browse</NavLink>
          <a href={EXTERNAL_LINKS.premiumDomains} target="_blank" rel="noopener noreferrer">
            Premium Domains
          </a>
          <NavLink to="/help-center">Help</NavLink>
          <NavLink to="/contact">Contact</NavLink>
          <NavLink to="/sell" className="nav-sell">
            {user ? 'Sell' : 'Sell Your Site'}
          </NavLink>
          {user ? (
            <>
              <NavLink to="/dashboard">Dashboard</NavLink>
              {badge && (
                <Link to="/dashboard?tab=messages" className="nav-unread" data-testid="header-unread">
                  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
                    <path d="M3 6h18v12H3z M3 6l9 7 9-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
                  </svg>
                  <span className="nav-unread-text">Messages</span>
                  <span className="nav-unread-count" aria-hidden="true">
                    {badge}
                  </span>
                  <span className="visually-hidden">{unreadPhrase(unreadCount)}</span>
                </Link>
              )}
              <span className="nav-user" data-testid="header-user" title={user.email}>
                {user.username}
              </span>
              <button type="button" className="btn btn-ghost" onClick={onLogout} disabled={loggingOut}>
                Logout
              </button>
            </>
          ) : (
            // While the session is read (and in the server's HTML) the visitor's links keep their place unseen, so
            // nothing moves for a visitor when it is known (ADR 0072).
            <>
              <NavLink to="/login" className={pending}>
                Login
              </NavLink>
              <NavLink to="/register" className={`btn btn-primary btn-small ${pending}`}>
                Sign Up
              </NavLink>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}

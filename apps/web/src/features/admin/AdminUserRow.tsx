import type { AdminUserDto } from '@market/contracts';
import type { useAdminUserActions } from './use-admin-user-actions';

/** One member of the admin Users table (SPEC §2): who they are, their state, and what the admin may do to them. */
export function AdminUserRow({ user, hold, actions }: { user: AdminUserDto; hold: { strikes: number } | undefined; actions: ReturnType<typeof useAdminUserActions> }) {
  const isAdmin = user.role === 'admin';
  return (
    <tr data-testid={`user-row-${user.username}`}>
      <td>
        {isAdmin && <CrownIcon />}
        <strong>{user.username}</strong>
        {user.name && <div className="muted">{user.name}</div>}
      </td>
      <td>{user.email}</td>
      <td>{user.role}</td>
      <td>
        {isAdmin ? (
          <span className={`badge ${user.verified ? 'badge-blue' : 'badge-gray'}`}>{user.verified ? 'Verified' : 'No'}</span>
        ) : (
          <button
            type="button"
            className={`badge ${user.verified ? 'badge-blue' : 'badge-gray'}`}
            style={{ border: 'none', cursor: 'pointer' }}
            title="Toggle seller verification"
            onClick={() => actions.toggleVerified(user)}
          >
            {user.verified ? '✔ Verified' : 'Not verified'}
          </button>
        )}
      </td>
      <td>
        <span className={`badge ${user.status === 'active' ? 'badge-green' : 'badge-red'}`}>{user.status}</span>
        {hold && (
          <span className="badge badge-red" style={{ marginLeft: 4 }} data-testid="buying-hold" title={`${hold?.strikes ?? 2} unpaid purchases in 90 days`}>
            Buying on hold
          </span>
        )}
      </td>
      <td>
        {user.listingCount} ({user.activeListings} active, {user.soldListings} sold)
      </td>
      <td>{new Date(user.created_at).toLocaleDateString()}</td>
      <td>
        {isAdmin ? (
          <span className="muted">—</span>
        ) : (
          <div className="row-actions">
            {user.status === 'active' ? (
              <button type="button" className="btn btn-ghost btn-tiny" onClick={() => actions.setUserStatus(user, 'suspended')}>
                Suspend
              </button>
            ) : (
              <button type="button" className="btn btn-ghost btn-tiny" onClick={() => actions.setUserStatus(user, 'active')}>
                Activate
              </button>
            )}
            {user.status === 'active' && (
              <button type="button" className="btn btn-secondary btn-tiny" onClick={() => actions.logInAs(user)}>
                Log in as
              </button>
            )}
            {hold && (
              <button type="button" className="btn btn-ghost btn-tiny" onClick={() => actions.lift(user)}>
                Lift hold
              </button>
            )}
            <button type="button" className="btn btn-danger btn-tiny" onClick={() => actions.remove(user)}>
              Delete
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** The admin marker of the Users table (SPEC §2); an SVG, so it shows whatever fonts the machine has. */
function CrownIcon() {
  return (
    <svg className="crown" width="16" height="14" viewBox="0 0 16 14" role="img" aria-label="Administrator">
      <title>Administrator</title>
      <path d="M1 4l3.5 3L8 1l3.5 6L15 4l-1.5 8h-11z" fill="#f59e0b" stroke="#b45309" strokeWidth="1" strokeLinejoin="round" />
    </svg>
  );
}

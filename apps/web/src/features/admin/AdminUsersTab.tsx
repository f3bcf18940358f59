import { useMemo, useState } from 'react';
import { useAdminUsersQuery } from './admin.api';
import { useBuyingHoldsQuery } from './buying-holds.api';
import { useAdminUserActions } from './use-admin-user-actions';
import { AdminUserRow } from './AdminUserRow';

type Filter = 'all' | string;

/** Admin Users tab (SPEC §2): filters, verification toggle, suspend/activate, delete, and log in as the user. */
export function AdminUsersTab() {
  const { data, isLoading, isError } = useAdminUsersQuery();
  // Members on hold after two unpaid purchases (ADR 0043), from bidding-service.
  const { data: holdsData } = useBuyingHoldsQuery();
  const holds = useMemo(() => new Map((holdsData?.holds ?? []).map((hold) => [hold.user_id, hold])), [holdsData]);
  const actions = useAdminUserActions();
  const [status, setStatus] = useState<Filter>('all');
  const [activity, setActivity] = useState<Filter>('all');
  const [verification, setVerification] = useState<Filter>('all');

  const users = useMemo(
    () =>
      (data?.users ?? []).filter(
        (user) =>
          (status === 'all' || user.status === status) &&
          (activity === 'all' || (activity === 'has' ? user.listingCount > 0 : user.listingCount === 0)) &&
          (verification === 'all' || (verification === 'verified') === user.verified),
      ),
    [data, status, activity, verification],
  );

  const select = (label: string, value: string, onChange: (v: string) => void, options: Array<[string, string]>) => (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <>
      {actions.toast}
      {actions.dialog}
      <div className="filters">
        {select('Status', status, setStatus, [['all', 'All statuses'], ['active', 'Active'], ['suspended', 'Suspended']])}
        {select('Activity', activity, setActivity, [['all', 'All users'], ['has', 'Has listings'], ['none', 'No listings']])}
        {select('Verification', verification, setVerification, [['all', 'All'], ['verified', 'Verified'], ['unverified', 'Not verified']])}
      </div>
      {isError && (
        <div className="alert alert-error" role="alert">
          Could not load users.
        </div>
      )}
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>User</th>
              <th>Email</th>
              <th>Role</th>
              <th>Verified</th>
              <th>Status</th>
              <th>Listings</th>
              <th>Joined</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {isLoading && (
              <tr>
                <td colSpan={8}>Loading users...</td>
              </tr>
            )}
            {!isLoading && users.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  No users match these filters.
                </td>
              </tr>
            )}
            {users.map((user) => (
              <AdminUserRow key={user.id} user={user} hold={holds.get(user.id)} actions={actions} />
            ))}
          </tbody>
        </table>
      </div>
      <div className="table-footer">
        Showing {users.length} of {data?.total ?? 0} users
      </div>
    </>
  );
}

import { useAdminEmailsQuery, useAdminStatsQuery, useAdminUsersQuery, useAuditLogQuery } from './admin.api';

const when = (iso: string) => new Date(iso).toLocaleString();

/** Admin Overview: platform counts, the latest emails (the mailbox when no SMTP is set) and the impersonation audit. */
export function AdminOverviewTab() {
  const stats = useAdminStatsQuery();
  const emails = useAdminEmailsQuery();
  const audit = useAuditLogQuery();
  const users = useAdminUsersQuery();
  const names = new Map((users.data?.users ?? []).map((u) => [u.id, u.username]));
  const nameOf = (id: string) => names.get(id) ?? id.slice(0, 8);
  const cards: Array<[string, number | null | undefined]> = [
    ['Total users', stats.data?.total_users],
    ['Total listings', stats.data?.total_listings],
    ['Active listings', stats.data?.active_listings],
    ['Transactions', stats.data?.total_transactions],
    // Events no service could apply (ADR 0046): above zero, the runbook in docs/operations.md says what to do.
    ['Dead letters', stats.data?.dead_letters],
  ];

  return (
    <>
      {stats.isError && (
        <div className="alert alert-error" role="alert">
          Could not load the platform stats.
        </div>
      )}
      <div className="stat-grid">
        {cards.map(([label, value]) => (
          <div className="card" key={label}>
            <div className="muted">{label}</div>
            <div className="stat-value">{stats.isLoading ? '…' : (value ?? '–')}</div>
          </div>
        ))}
      </div>

      <h2>Recent emails</h2>
      <div className="table-wrap" style={{ marginBottom: '2rem' }}>
        <table className="data">
          <thead>
            <tr>
              <th>Sent</th>
              <th>To</th>
              <th>Subject</th>
              <th>Via</th>
            </tr>
          </thead>
          <tbody>
            {emails.isLoading && (
              <tr>
                <td colSpan={4}>Loading...</td>
              </tr>
            )}
            {emails.data?.emails.length === 0 && (
              <tr>
                <td colSpan={4} className="muted">
                  No emails sent yet.
                </td>
              </tr>
            )}
            {emails.data?.emails.map((email) => (
              <tr key={email.id}>
                <td>{when(email.sent_at)}</td>
                <td>{email.to_address}</td>
                <td>
                  <details>
                    <summary>{email.subject}</summary>
                    <pre className="email-body">{email.text_body || '(delivered over SMTP; body not kept)'}</pre>
                  </details>
                </td>
                <td>
                  <span className={`badge ${email.transport === 'smtp' ? 'badge-green' : 'badge-gray'}`}>{email.transport}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Impersonation audit log</h2>
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Time</th>
              <th>Admin</th>
              <th>Viewed user</th>
              <th>Action</th>
              <th>Request</th>
            </tr>
          </thead>
          <tbody>
            {audit.data?.entries.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  Nobody has been impersonated yet.
                </td>
              </tr>
            )}
            {audit.data?.entries.map((entry) => (
              <tr key={entry.id}>
                <td>{when(entry.at)}</td>
                <td>{nameOf(entry.admin_id)}</td>
                <td>{nameOf(entry.target_id)}</td>
                <td>{entry.action}</td>
                <td>
                  <code>
                    {entry.method} {entry.route}
                  </code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

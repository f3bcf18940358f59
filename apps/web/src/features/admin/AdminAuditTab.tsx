import { useState, type FormEvent } from 'react';
import { EmptyState, LoadError, LoadingState } from '../../components/feedback/QueryState';
import { useAdminAuditQuery } from '../../api/admin-audit.api';
import { errorDetail } from '../../lib/error-detail';
import { auditFormProblem, auditRequest, NO_AUDIT_FILTERS, type AuditFilterForm } from './admin-audit-format';
import { AuditFilters } from './AuditFilters';
import { AuditRow } from './AuditRow';
import './admin-audit.css';

/**
 * Admin Audit tab (ADR 0032): every admin act and impersonation entry, newest first, filtered by actor, action, target
 * and dates, a page at a time (older pages follow the API's cursor).
 */
export function AdminAuditTab() {
  const [form, setForm] = useState<AuditFilterForm>(NO_AUDIT_FILTERS);
  const [applied, setApplied] = useState<AuditFilterForm>(NO_AUDIT_FILTERS);
  // The cursors of the pages above this one: Older pushes the next page's, Newer pops back.
  const [cursors, setCursors] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1];
  const { data, error, isLoading, isFetching, isError, refetch } = useAdminAuditQuery(auditRequest(applied, cursor), { refetchOnMountOrArgChange: true });
  // A failed load empties the table rather than showing stale rows as current (SPEC §8).
  const entries = isError ? [] : (data?.entries ?? []);
  const filtered = Object.values(applied).some((value) => value !== '');

  const set = (key: keyof AuditFilterForm, value: string) => setForm((current) => ({ ...current, [key]: value }));
  const apply = (next: AuditFilterForm) => {
    const wrong = auditFormProblem(next);
    setProblem(wrong);
    if (wrong) return;
    setApplied(next);
    setCursors([]);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply(form);
  };
  const clear = () => {
    setForm(NO_AUDIT_FILTERS);
    apply(NO_AUDIT_FILTERS);
  };

  return (
    <section className="admin-audit" aria-label="Audit log">
      <AuditFilters form={form} filtered={filtered} set={set} onSubmit={onSubmit} clear={clear} />

      {problem && (
        <div className="alert alert-error" role="alert">
          {problem}
        </div>
      )}
      {isError && <LoadError onRetry={() => refetch()}>Could not load the audit log: {errorDetail(error, 'please try again.')}</LoadError>}
      {isLoading && <LoadingState text="Loading the audit log..." />}
      {!isLoading && !isError && entries.length === 0 && (
        <EmptyState>
          <p className="muted">{filtered ? 'No audit entries match these filters.' : 'No admin actions have been recorded yet.'}</p>
        </EmptyState>
      )}

      {entries.length > 0 && (
        <>
          <div className="table-wrap admin-audit-wrap" aria-busy={isFetching}>
            <table className="data admin-audit-table">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>What</th>
                  <th>Target</th>
                  <th>Before → After</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <AuditRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="table-footer admin-audit-pages">
            <span>
              Showing {entries.length} entr{entries.length === 1 ? 'y' : 'ies'}
              {cursors.length > 0 ? ` (page ${cursors.length + 1})` : ''}
            </span>
            <span className="row-actions">
              <button type="button" className="btn btn-secondary btn-tiny" disabled={cursors.length === 0} onClick={() => setCursors((list) => list.slice(0, -1))}>
                ← Newer
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-tiny"
                disabled={!data?.next_cursor || isFetching}
                onClick={() => data?.next_cursor && setCursors((list) => [...list, data.next_cursor as string])}
              >
                Older →
              </button>
            </span>
          </div>
        </>
      )}
    </section>
  );
}

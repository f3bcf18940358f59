import type { FormEvent } from 'react';
import { FilterSelect } from '../../components/form/FilterSelect';
import { AUDIT_ACTION_OPTIONS, type AuditFilterForm } from './admin-audit-format';

interface AuditFiltersProps {
  form: AuditFilterForm;
  /** True when the list shown is filtered (Clear is offered then, or while anything is typed). */
  filtered: boolean;
  set: (key: keyof AuditFilterForm, value: string) => void;
  onSubmit: (event: FormEvent) => void;
  clear: () => void;
}

/** The audit log's filters: admin, action, target id and dates, applied together. */
export function AuditFilters({ form, filtered, set, onSubmit, clear }: AuditFiltersProps) {
  return (
    <form className="filters admin-audit-filters" onSubmit={onSubmit} aria-label="Audit filters">
      <label>
        Admin
        <input type="search" aria-label="Admin" value={form.actor} placeholder="Username or id" onChange={(event) => set('actor', event.target.value)} />
      </label>
      <FilterSelect label="Action" value={form.action} options={AUDIT_ACTION_OPTIONS} onChange={(value) => set('action', value)} />
      <label>
        Target id
        <input type="search" aria-label="Target id" value={form.target} placeholder="Paste an id" onChange={(event) => set('target', event.target.value)} />
      </label>
      <label className="admin-audit-date">
        From
        <input type="date" aria-label="From" value={form.from} onChange={(event) => set('from', event.target.value)} />
      </label>
      <label className="admin-audit-date">
        To
        <input type="date" aria-label="To" value={form.to} onChange={(event) => set('to', event.target.value)} />
      </label>
      <div className="admin-audit-buttons">
        <button type="submit" className="btn btn-primary btn-tiny">
          Apply filters
        </button>
        <button type="button" className="btn btn-secondary btn-tiny" onClick={clear} disabled={!filtered && !Object.values(form).some(Boolean)}>
          Clear
        </button>
      </div>
    </form>
  );
}

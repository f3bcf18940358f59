import type { AuditLogEntry } from '@market/contracts';
import { actionLabel, changeLines, targetLabel, whoLabel } from './admin-audit-format';

/** One entry: when, who, what, the target and what changed. */
export function AuditRow({ entry }: { entry: AuditLogEntry }) {
  return (
    <tr data-testid="audit-row" data-action={entry.action}>
      <td data-label="When" className="admin-audit-when">
        {new Date(entry.at).toLocaleString()}
      </td>
      <td data-label="Who" className="admin-audit-who">
        {whoLabel(entry)}
      </td>
      <td data-label="What">
        <div className="admin-audit-action">{actionLabel(entry.action)}</div>
        <code className="muted small">{entry.action}</code>
      </td>
      <td data-label="Target" className="admin-audit-target">
        {targetLabel(entry)}
        {entry.target_id && <div className="muted small admin-audit-id">{entry.target_id}</div>}
      </td>
      <td data-label="Before → After" className="admin-audit-change">
        <ul>
          {changeLines(entry).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </td>
    </tr>
  );
}

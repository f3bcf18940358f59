import { AUDIT_ACTIONS, type AuditAction, type AuditLogEntry } from '@market/contracts';
import type { AuditRequest } from '../../api/admin-audit.api';

/** What the Audit tab's filter form holds: text as typed, dates as the date inputs give them (the admin's local days). */
export interface AuditFilterForm {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilterForm = { actor: '', action: '', target: '', from: '', to: '' };
export const AUDIT_PAGE_SIZE = 50;

const ACTION_LABELS: Record<AuditAction, string> = {
  'user.suspended': 'User suspended',
  'user.activated': 'User reactivated',
  'user.verified': 'Seller verified',
  'user.unverified': 'Seller unverified',
  'user.email_verified': 'Email confirmed by an admin',
  'user.buying_hold_lifted': 'Buying hold lifted',
  'invoice.sale_cancelled': 'Unpaid sale cancelled',
  'user.deleted': 'User deleted',
  'user.impersonated': 'Impersonation session opened',
  'settings.updated': 'Settings changed',
  'payment.captured': 'Funds released',
  'payment.refunded': 'Payment refunded',
  'listing.status_changed': 'Listing status changed',
  'dispute.resolved': 'Dispute resolved',
  'listing.featured': 'Listing featured',
  'listing.unfeatured': 'Listing unfeatured',
  'listing.edited': 'Listing edited',
  'listing.deleted': 'Listing deleted',
  'listing.cancelled': 'Listing cancelled',
  'review.hidden': 'Review hidden',
  'impersonation.start': 'Impersonation started',
  'impersonation.stop': 'Impersonation stopped',
  request: 'Request while impersonating',
};

/** The action filter's choices: every action the log can hold, by its label. */
export const AUDIT_ACTION_OPTIONS: Array<{ value: string; label: string }> = [
  { value: '', label: 'All actions' },
  ...AUDIT_ACTIONS.map((action) => ({ value: action, label: ACTION_LABELS[action] })),
];

/** An action's label; one this web app does not know yet shows as it is stored. */
export function actionLabel(action: string): string {
  return (ACTION_LABELS as Record<string, string>)[action] ?? action;
}

const FIELD_LABELS: Record<string, string> = {
  smtp_host: 'SMTP host',
  smtp_port: 'SMTP port',
  smtp_username: 'SMTP username',
  smtp_password: 'SMTP password',
  smtp_secure: 'SMTP secure',
  success_fee: 'Success fee (%)',
  listing_fee: 'Listing fee ($)',
  featured_fee: 'Featured fee ($)',
  anti_sniping_minutes: 'Soft close (minutes)',
};

/** A changed field's name as people read it: `auto_approve` is "auto approve". */
export function fieldLabel(key: string): string {
  return FIELD_LABELS[key] ?? key.replace(/_/g, ' ');
}

/** A stored value as the table shows it. */
export function formatAuditValue(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === '') return '(empty)';
  return String(value);
}

/** The Before → After lines of an entry: each changed field, each changed secret (named, never shown), or the request. */
export function changeLines(entry: AuditLogEntry): string[] {
  if (entry.request) return [`${entry.request.method} ${entry.request.route}`];
  const before = entry.before ?? {};
  const after = entry.after;
  const lines = after
    ? Object.keys({ ...before, ...after }).map((key) => `${fieldLabel(key)}: ${formatAuditValue(before[key])} → ${formatAuditValue(after[key])}`)
    : Object.keys(before).map((key) => `${fieldLabel(key)} was ${formatAuditValue(before[key])}`);
  const all = [...lines, ...entry.changed_secrets.map((key) => `${fieldLabel(key)}: changed (not shown)`)];
  return all.length > 0 ? all : ['—'];
}

const shortId = (id: string) => id.slice(0, 8);

/** Who acted: the admin's username (else a short id), and the admin behind an impersonation. */
export function whoLabel(entry: AuditLogEntry): string {
  const admin = entry.admin_username ?? shortId(entry.admin_id);
  if (!entry.impersonator_id) return admin;
  return `${entry.impersonator_username ?? shortId(entry.impersonator_id)} as ${admin}`;
}

/** What was acted on: its kind and name (a username, a listing title, an invoice number) or short id. */
export function targetLabel(entry: AuditLogEntry): string {
  if (entry.target_type === 'settings') return 'Platform settings';
  const kind = entry.target_type.charAt(0).toUpperCase() + entry.target_type.slice(1);
  const name = entry.target_label ?? (entry.target_id ? shortId(entry.target_id) : '');
  return name ? `${kind} ${name}` : kind;
}

/** The start of a local day (YYYY-MM-DD from a date input) as an ISO moment, or undefined for none. */
function localDayStart(day: string, addDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + addDays).toISOString();
}

/** The API request for the form: `from` is the start of its local day, `to` the end of its (the next day's start). */
export function auditRequest(form: AuditFilterForm, cursor?: string): AuditRequest {
  return {
    actor: form.actor.trim() || undefined,
    action: form.action || undefined,
    target: form.target.trim() || undefined,
    from: localDayStart(form.from),
    to: localDayStart(form.to, 1),
    limit: AUDIT_PAGE_SIZE,
    cursor,
  };
}

/** Why the form cannot be asked as it is (the dates the wrong way round), or null. */
export function auditFormProblem(form: AuditFilterForm): string | null {
  if (form.from && form.to && form.from > form.to) return 'The "From" date must not be after the "To" date.';
  return null;
}

import type { AuditLogEntry } from '@market/contracts';
import { auditQueryString } from '../../api/admin-audit.api';
import { actionLabel, AUDIT_ACTION_OPTIONS, auditFormProblem, auditRequest, changeLines, NO_AUDIT_FILTERS, targetLabel, whoLabel } from './admin-audit-format';

const base: AuditLogEntry = {
  id: '0b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  at: '2026-11-25T10:00:00.000Z',
  action: 'settings.updated',
  admin_id: '1b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  admin_username: 'root_admin',
  impersonator_id: null,
  impersonator_username: null,
  target_type: 'settings',
  target_id: null,
  target_label: null,
  before: { success_fee: 0, auto_approve: false, smtp_host: '' },
  after: { success_fee: 2.5, auto_approve: true, smtp_host: 'mail.example.com' },
  changed_secrets: ['smtp_password'],
  request: null,
};

describe('audit entries as the Audit tab shows them', () => {
  it('lists each changed setting before and after, and names the SMTP password without a value', () => {
    expect(changeLines(base)).toEqual([
      'Success fee (%): 0 → 2.5',
      'auto approve: no → yes',
      'SMTP host: (empty) → mail.example.com',
      'SMTP password: changed (not shown)',
    ]);
    expect(targetLabel(base)).toBe('Platform settings');
  });

  it('says what a deleted listing was, and shows an impersonated request as its method and route', () => {
    const deleted = { ...base, action: 'listing.deleted', target_type: 'listing', target_id: '2b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b', target_label: 'Heron blog', before: { status: 'paused', featured: false }, after: null, changed_secrets: [] };
    expect(changeLines(deleted)).toEqual(['status was paused', 'featured was no']);
    expect(targetLabel(deleted)).toBe('Listing Heron blog');
    const request = { ...base, action: 'request', target_type: 'user', target_id: deleted.target_id, target_label: null, before: null, after: null, changed_secrets: [], request: { method: 'GET', route: '/api/auth/me' } };
    expect(changeLines(request)).toEqual(['GET /api/auth/me']);
    expect(targetLabel(request)).toBe('User 2b5f7a4e');
    expect(actionLabel('request')).toBe('Request while impersonating');
    expect(actionLabel('listing.archived')).toBe('listing.archived');
  });

  it('names who acted, and the admin behind an impersonation, by username or short id', () => {
    expect(whoLabel(base)).toBe('root_admin');
    expect(whoLabel({ ...base, admin_username: null })).toBe('1b5f7a4e');
    expect(whoLabel({ ...base, admin_username: 'ann', impersonator_id: '3b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b', impersonator_username: 'root_admin' })).toBe('root_admin as ann');
  });

  it('offers every action the API filters by, after "All actions"', () => {
    expect(AUDIT_ACTION_OPTIONS[0]).toEqual({ value: '', label: 'All actions' });
    expect(AUDIT_ACTION_OPTIONS.map((o) => o.value)).toContain('settings.updated');
    expect(AUDIT_ACTION_OPTIONS.map((o) => o.value)).toContain('impersonation.start');
  });

  it('asks the API for the local days the date inputs name, and leaves out what is not set', () => {
    const request = auditRequest({ ...NO_AUDIT_FILTERS, actor: ' root ', from: '2026-11-20', to: '2026-11-25' });
    expect(request.from).toBe(new Date(2026, 10, 20).toISOString());
    expect(request.to).toBe(new Date(2026, 10, 26).toISOString());
    expect(auditQueryString(request)).toBe(`actor=root&from=${encodeURIComponent(request.from as string)}&to=${encodeURIComponent(request.to as string)}&limit=50`);
    expect(auditQueryString(auditRequest(NO_AUDIT_FILTERS, 'abc'))).toBe('limit=50&cursor=abc');
    expect(auditFormProblem({ ...NO_AUDIT_FILTERS, from: '2026-11-25', to: '2026-11-20' })).toMatch(/must not be after/);
    expect(auditFormProblem({ ...NO_AUDIT_FILTERS, from: '2026-11-25', to: '2026-11-25' })).toBeNull();
  });
});

import type { AuditLogPage } from '@market/contracts';
import { api } from '../lib/api';

const AUDIT = 'AdminAudit';

/** What the Audit tab asks GET /api/admin/audit for: filters as the API takes them, and the page's cursor. */
export interface AuditRequest {
  actor?: string;
  action?: string;
  target?: string;
  /** ISO date-times: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** The query string of a request: only the filters that are set, in a stable order (one cache entry per question). */
export function auditQueryString(request: AuditRequest): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'action', 'target', 'from', 'to', 'limit', 'cursor'] as const) {
    const value = request[key];
    if (value !== undefined && String(value).trim() !== '') params.set(key, String(value).trim());
  }
  return params.toString();
}

/** GET /api/admin/audit (ADR 0032): the audit log, newest first, a page at a time. The tag is added here, as admin billing does. */
export const adminAuditApi = api.enhanceEndpoints({ addTagTypes: [AUDIT] }).injectEndpoints({
  endpoints: (build) => ({
    adminAudit: build.query<AuditLogPage, AuditRequest>({
      query: (request) => `/admin/audit?${auditQueryString(request)}`,
      providesTags: [AUDIT],
    }),
  }),
});

export const { useAdminAuditQuery } = adminAuditApi;

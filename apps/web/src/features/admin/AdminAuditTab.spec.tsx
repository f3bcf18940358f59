import type { AuditLogEntry } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { adminAuditApi } from '../../api/admin-audit.api';
import { api } from '../../lib/api';
import { renderStatic, visibleText } from '../../testing/static-render';
import { AdminAuditTab } from './AdminAuditTab';
import { auditRequest, NO_AUDIT_FILTERS } from './admin-audit-format';

// Jest has no CSS transform: the style sheets the components import are empty here.
jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./admin-audit.css', () => ({}));

const FIRST_PAGE = auditRequest(NO_AUDIT_FILTERS);
const suspended: AuditLogEntry = {
  id: '0b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  at: '2026-11-25T10:00:00.000Z',
  action: 'user.suspended',
  admin_id: '1b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  admin_username: 'root_admin',
  impersonator_id: null,
  impersonator_username: null,
  target_type: 'user',
  target_id: '2b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  target_label: 'heron_seller',
  before: { status: 'active' },
  after: { status: 'suspended' },
  changed_secrets: [],
  request: null,
};

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function storeWith(entries: AuditLogEntry[] | 'failed', nextCursor: string | null = null): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  if (entries === 'failed') {
    // The API answers 503: relative URLs resolve against a stand-in origin, and fetch answers as the gateway would.
    const { Request: NodeRequest, fetch: nodeFetch } = globalThis;
    globalThis.Request = class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://market.test') : input, init);
      }
    };
    globalThis.fetch = async () => new Response(JSON.stringify({ detail: 'Service temporarily unavailable, please try again' }), { status: 503, headers: { 'content-type': 'application/json' } });
    try {
      await store.dispatch(adminAuditApi.endpoints.adminAudit.initiate(FIRST_PAGE));
    } finally {
      globalThis.Request = NodeRequest;
      globalThis.fetch = nodeFetch;
    }
  } else {
    await store.dispatch(adminAuditApi.util.upsertQueryData('adminAudit', FIRST_PAGE, { entries, next_cursor: nextCursor }));
  }
  return store;
}

const render = (store?: AppStore) => renderStatic(<AdminAuditTab />, store, '/dashboard?tab=audit');

describe('AdminAuditTab', () => {
  it('shows the filters and the loading state first', () => {
    const html = render();
    expect(visibleText(html)).toContain('Loading the audit log...');
    for (const label of ['Admin', 'Action', 'Target id', 'From', 'To']) expect(visibleText(html)).toContain(label);
    expect(html).toContain('type="date"');
  });

  it('shows the empty state when nothing was recorded', async () => {
    const page = visibleText(render(await storeWith([])));
    expect(page).toContain('No admin actions have been recorded yet.');
    expect(page).not.toContain('Loading the audit log...');
  });

  it('shows a failed load as an error with a way to try again, and no rows', async () => {
    const html = render(await storeWith('failed'));
    expect(visibleText(html)).toContain('Could not load the audit log: Service temporarily unavailable, please try again');
    expect(html).toContain('class="alert alert-error" role="alert"');
    expect(visibleText(html)).toContain('Try again');
    expect(html).not.toContain('data-testid="audit-row"');
  });

  it('lists entries with who, when, what, the target and the change, and offers older pages', async () => {
    const html = render(await storeWith([suspended], 'next-page'));
    expect(html.match(/data-testid="audit-row"/g)).toHaveLength(1);
    const page = visibleText(html);
    expect(page).toContain('When Who What Target Before → After');
    expect(page).toMatch(/root_admin User suspended user\.suspended User heron_seller 2b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b status: active → suspended/);
    expect(page).toContain('Showing 1 entry');
    expect(html).toMatch(/<button type="button" class="btn btn-secondary btn-tiny">Older →<\/button>/);
    expect(html).toMatch(/<button type="button" class="btn btn-secondary btn-tiny" disabled="">← Newer<\/button>/);
  });
});

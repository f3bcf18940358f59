import type { UserDto, UserSession } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { api } from '../../lib/api';
import { renderStatic, visibleText } from '../../testing/static-render';
import { profileApi } from './profile.api';
import { ProfileTab } from './ProfileTab';
import { emailEdited } from './ProfileForm';
import { orderSessions, SessionsSection } from './SessionsSection';

// Jest has no CSS transform: the style sheets the components import are empty here.
jest.mock('../../components/feedback/feedback.css', () => ({}));
jest.mock('./profile.css', () => ({}));

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const here: UserSession = {
  id: '0b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  device: CHROME_LINUX,
  address: '203.0.113.9',
  created_at: '2026-11-20T09:00:00.000Z',
  last_seen_at: '2026-11-25T09:00:00.000Z',
  current: true,
};
const phone: UserSession = {
  id: '1b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  device: SAFARI_IPHONE,
  address: '198.51.100.23',
  created_at: '2026-11-24T18:30:00.000Z',
  last_seen_at: '2026-11-25T10:00:00.000Z',
  current: false,
};
const user: UserDto = {
  id: '2b5f7a4e-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  username: 'heron_seller',
  email: 'heron@example.com',
  name: 'Heron Seller',
  bio: null,
  website: null,
  phone: null,
  location: null,
  role: 'regular',
  status: 'active',
  verified: false,
  email_verified: true,
  created_at: '2026-11-01T09:00:00.000Z',
};

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

async function storeWith(sessions: UserSession[] | 'failed'): Promise<AppStore> {
  const store = createStore();
  stores.push(store);
  if (sessions === 'failed') {
    // The API answers 503: relative URLs resolve against a stand-in origin, and fetch answers as the gateway would.
    const { Request: NodeRequest, fetch: nodeFetch } = globalThis;
    globalThis.Request = class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://market.test') : input, init);
      }
    };
    globalThis.fetch = async () =>
      new Response(JSON.stringify({ detail: 'Service temporarily unavailable, please try again' }), { status: 503, headers: { 'content-type': 'application/json' } });
    try {
      await store.dispatch(profileApi.endpoints.sessions.initiate());
    } finally {
      globalThis.Request = NodeRequest;
      globalThis.fetch = nodeFetch;
    }
  } else {
    await store.dispatch(profileApi.util.upsertQueryData('sessions', undefined, { sessions }));
  }
  return store;
}

const render = (store?: AppStore) => renderStatic(<SessionsSection />, store, '/dashboard?tab=profile');

describe('SessionsSection', () => {
  it('shows the loading state first, with its heading and "Log out everywhere"', () => {
    const page = visibleText(render());
    expect(page).toContain('Sessions');
    expect(page).toContain('Loading your sessions...');
    expect(page).toContain('Log out everywhere');
  });

  it('shows a failed load as an error with a way to try again, and no rows', async () => {
    const html = render(await storeWith('failed'));
    expect(visibleText(html)).toContain('Could not load your sessions: Service temporarily unavailable, please try again');
    expect(html).toContain('class="alert alert-error" role="alert"');
    expect(visibleText(html)).toContain('Try again');
    expect(html).not.toContain('data-testid="session-row"');
  });

  it('says so when there is no active session', async () => {
    const html = render(await storeWith([]));
    expect(visibleText(html)).toContain('No active sessions.');
    expect(html).not.toContain('data-testid="session-row"');
    expect(visibleText(html)).not.toContain('Loading your sessions...');
  });

  it('lists this device first, each with device, address, start and last use, and a Log out for the others only', async () => {
    const html = render(await storeWith([phone, here]));
    const rows = html.split('data-testid="session-row"').slice(1);
    expect(rows).toHaveLength(2);
    const [first, second] = rows.map(visibleText);
    expect(first).toMatch(/^> Chrome on Linux This device 203\.0\.113\.9 Started .+ Last active .+/);
    expect(first).not.toContain('Log out');
    expect(second).toMatch(/^> Safari on iPhone 198\.51\.100\.23 Started .+ Last active .+ Log out Safari on iPhone \(198\.51\.100\.23\)/);
    expect(html).toContain(`<time dateTime="${phone.last_seen_at}">`);
    // The button's visible text starts its accessible name; the rest says which session it ends.
    expect(html).toMatch(/<button type="button" class="btn btn-secondary btn-tiny">Log out<span class="visually-hidden"> Safari on iPhone \(198\.51\.100\.23\)<\/span><\/button>/);
  });

  it('orders this device first, then by last use', () => {
    const older = { ...phone, id: 'older', last_seen_at: '2026-11-21T10:00:00.000Z' };
    expect(orderSessions([older, phone, here]).map((s) => s.id)).toEqual([here.id, phone.id, 'older']);
  });
});

describe('ProfileTab', () => {
  it('shows the sessions to the account holder and hides them while an admin impersonates', async () => {
    const store = await storeWith([here]);
    expect(visibleText(renderStatic(<ProfileTab user={user} impersonating={false} />, store))).toContain('Log out everywhere');
    const impersonated = visibleText(renderStatic(<ProfileTab user={user} impersonating />, store));
    expect(impersonated).not.toContain('Sessions');
    expect(impersonated).not.toContain('Log out everywhere');
    expect(impersonated).toContain('Save Profile');
  });

  it('asks for the password only once the email field differs from the account', async () => {
    const html = renderStatic(<ProfileTab user={user} impersonating />, await storeWith([]));
    expect(html).not.toContain('name="current_password"');
    expect(emailEdited('heron@example.com', ' Heron@Example.com ')).toBe(false);
    expect(emailEdited('heron@example.com', 'heron@elsewhere.example')).toBe(true);
  });
});

import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { AdminUserDto } from '@market/contracts';
import { createStore, type AppStore } from '../../testing/test-store';
import { api } from '../../lib/api';
import { adminApi } from './admin.api';
import { buyingHoldsApi } from './buying-holds.api';
import { AdminUsersTab } from './AdminUsersTab';

jest.mock('../../components/feedback/feedback.css', () => ({}));

const member = (id: string, username: string) =>
  ({ id, username, name: null, email: `${username}@example.com`, role: 'regular', verified: false, status: 'active', created_at: '2026-11-01T10:00:00Z', listingCount: 0, activeListings: 0, soldListings: 0 }) as unknown as AdminUserDto;
const held = member('11111111-1111-4111-8111-111111111111', 'holly');
const clear = member('22222222-2222-4222-8222-222222222222', 'clara');

const stores: AppStore[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.dispatch(api.util.resetApiState())));

describe('AdminUsersTab: buying holds (ADR 0043)', () => {
  it('marks a member on hold and offers Lift hold only there', async () => {
    const store = createStore();
    stores.push(store);
    await store.dispatch(adminApi.util.upsertQueryData('adminUsers', undefined, { users: [held, clear], total: 2 }));
    await store.dispatch(buyingHoldsApi.util.upsertQueryData('buyingHolds', undefined, { holds: [{ user_id: held.id, strikes: 2, last_struck_at: '2026-11-25T10:00:00Z' }] }));
    const html = renderToStaticMarkup(
      <Provider store={store}>
        <MemoryRouter>
          <AdminUsersTab />
        </MemoryRouter>
      </Provider>,
    );
    const rowOf = (username: string) => html.slice(html.indexOf(`user-row-${username}`), html.indexOf('</tr>', html.indexOf(`user-row-${username}`)));
    expect(rowOf('holly')).toContain('Buying on hold');
    expect(rowOf('holly')).toContain('Lift hold');
    expect(rowOf('clara')).not.toContain('Buying on hold');
    expect(rowOf('clara')).not.toContain('Lift hold');
  });
});

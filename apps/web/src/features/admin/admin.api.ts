import type {
  AdminListingDto,
  AdminStats,
  AdminUpdateListing,
  AdminUpdateUserRequest,
  AdminUsersResponse,
  AuditEntry,
  EmailLogEntry,
  ImpersonationResponse,
  PlatformSettings,
  PlatformSettingsView,
  UserDto,
} from '@market/contracts';
import { api } from '../../lib/api';

/** /api/admin endpoints of the Overview and Users tabs. */
export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminStats: build.query<AdminStats, void>({ query: () => '/admin/stats', providesTags: ['AdminStats'] }),
    adminUsers: build.query<AdminUsersResponse, void>({ query: () => '/admin/users?limit=1000', providesTags: ['AdminUsers'] }),
    adminEmails: build.query<{ emails: EmailLogEntry[] }, void>({ query: () => '/admin/emails', providesTags: ['AdminEmails'] }),
    auditLog: build.query<{ entries: AuditEntry[] }, void>({ query: () => '/admin/audit-log', providesTags: ['AuditLog'] }),
    updateUser: build.mutation<UserDto, { id: string; changes: AdminUpdateUserRequest }>({
      query: ({ id, changes }) => ({ url: `/admin/users/${id}`, method: 'PATCH', body: changes }),
      invalidatesTags: ['AdminUsers'],
    }),
    deleteUser: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/admin/users/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AdminUsers', 'AdminStats'],
    }),
    settings: build.query<PlatformSettingsView, void>({ query: () => '/admin/settings', providesTags: ['Settings'] }),
    saveSettings: build.mutation<PlatformSettingsView, PlatformSettings>({
      query: (body) => ({ url: '/admin/settings', method: 'POST', body }),
      invalidatesTags: ['Settings'],
    }),
    adminListings: build.query<{ listings: AdminListingDto[] }, void>({ query: () => '/admin/listings?limit=1000', providesTags: ['AdminListings'] }),
    // The Listings tab reloads its own table after every change (SPEC §4), so AdminListings is not invalidated here.
    adminUpdateListing: build.mutation<AdminListingDto, { id: string; changes: AdminUpdateListing }>({
      query: ({ id, changes }) => ({ url: `/admin/listings/${id}`, method: 'PATCH', body: changes }),
      invalidatesTags: (_result, _error, { id }) => ['AdminStats', 'Listings', 'MyListings', { type: 'Listing', id }],
    }),
    adminCancelListing: build.mutation<AdminListingDto, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/admin/listings/${id}/cancel`, method: 'POST', body: { reason } }),
      invalidatesTags: (_result, _error, { id }) => ['AdminListings', 'AdminStats', 'Listings', 'MyListings', 'Watchlist', { type: 'Listing', id }],
    }),
    adminDeleteListing: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/admin/listings/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => ['AdminListings', 'AdminStats', 'Listings', 'MyListings', 'Watchlist', { type: 'Listing', id }],
    }),
    impersonate: build.mutation<ImpersonationResponse, string>({
      query: (id) => ({ url: `/admin/impersonate/${id}`, method: 'POST' }),
    }),
  }),
});

export const {
  useAdminStatsQuery,
  useAdminUsersQuery,
  useAdminEmailsQuery,
  useAuditLogQuery,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useImpersonateMutation,
  useAdminListingsQuery,
  useAdminUpdateListingMutation,
  useAdminDeleteListingMutation,
  useAdminCancelListingMutation,
  useSettingsQuery,
  useSaveSettingsMutation,
} = adminApi;

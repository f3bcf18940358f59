import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { UuidSchema } from '../common.schemas';
import {
  ConnectStripeSchema,
  FinishGa4Schema,
  Ga4ConsentSchema,
  StartGa4Schema,
  VERIFICATION_SOURCES,
  VerificationConnectionsSchema,
} from './verified-figures.schemas';

const ListingPath = z.object({ id: UuidSchema });

/** A seller connecting the site's revenue and traffic sources read-only (D24, ADR 0084). */
export const VERIFIED_FIGURES_ROUTES = {
  get: defineRoute({
    method: 'get',
    path: '/listings/{id}/verifications',
    tag: 'listings',
    summary: "The listing's revenue and traffic sources: which are set up here, and each connection's state (never a key or token)",
    description: 'The seller and admins; 404 for anyone else.',
    auth: 'user',
    params: ListingPath,
    status: 200,
    reply: VerificationConnectionsSchema,
    errors: [404],
  }),
  connectStripe: defineRoute({
    method: 'post',
    path: '/listings/{id}/verifications/stripe',
    tag: 'listings',
    summary: 'Connect the site\'s Stripe account read-only with a restricted key ("Charges: Read")',
    description:
      'The seller only (an admin acting as them: 403). The key is checked by reading one charge: 400 when Stripe refuses it or it ' +
      'lacks the permission (or is a test-mode key where figures are real), 503 when Stripe does not answer in time, and then nothing ' +
      'is kept. It is stored sealed and never returned; the 12 months are read at once in the background (`verified_at` is null until ' +
      'they land), then daily while the listing is live. 409 when Stripe is not set up here. With the GA4 routes, 30 an hour per address (429).',
    auth: 'user',
    params: ListingPath,
    body: ConnectStripeSchema,
    status: 200,
    reply: VerificationConnectionsSchema,
    errors: [400, 403, 404, 409, 429, 503],
  }),
  startGa4: defineRoute({
    method: 'post',
    path: '/listings/{id}/verifications/ga4',
    tag: 'listings',
    summary: "Start connecting the site's Google Analytics 4 property read-only: the address of Google's consent page",
    description: 'The seller only. The consent comes back to /verify/ga4 with a state issued for this seller and listing (single use, 15 minutes). 409 when Google Analytics is not set up here.',
    auth: 'user',
    params: ListingPath,
    body: StartGa4Schema,
    status: 200,
    reply: Ga4ConsentSchema,
    errors: [403, 404, 409, 429],
  }),
  finishGa4: defineRoute({
    method: 'post',
    path: '/verifications/ga4/callback',
    tag: 'listings',
    summary: "Finish connecting GA4 with the code and state Google sent back",
    description:
      'A state not issued to the caller, used or expired is a 400 and changes nothing (CSRF). 400 when Google refuses the code, the ' +
      'scope was not granted, or a report of the last month cannot read the property; 503 when Google does not answer in time. The ' +
      '12 months are read at once in the background, then daily.',
    auth: 'user',
    body: FinishGa4Schema,
    status: 200,
    reply: VerificationConnectionsSchema,
    errors: [400, 403, 404, 429, 503],
  }),
  disconnect: defineRoute({
    method: 'delete',
    path: '/listings/{id}/verifications/{source}',
    tag: 'listings',
    summary: "Disconnect a source: its key or token and every figure taken from it are deleted",
    description: 'The seller only. Disconnecting a source that is not connected answers the same state.',
    auth: 'user',
    params: z.object({ id: UuidSchema, source: z.enum(VERIFICATION_SOURCES) }),
    status: 200,
    reply: VerificationConnectionsSchema,
    errors: [403, 404],
  }),
};

import { BIDDING_ROUTES } from '../bidding/bidding.routes';
import type { RouteDefinition } from './define-route';

/** Every route of the public API by group: the gateway serves exactly these and the OpenAPI document lists them. */
export const API = {
  bids: BIDDING_ROUTES,
} satisfies Record<string, Record<string, RouteDefinition>>;

/** What each tag of the API document groups. */
export const API_TAGS: Record<string, string> = {
  bids: 'Bids and offers (SPEC §7)',
};

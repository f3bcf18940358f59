import { defineRpc } from '../rpc';
import {
  ConnectStripeRequestSchema,
  DisconnectRequestSchema,
  FinishGa4RequestSchema,
  Ga4ConsentSchema,
  StartGa4RequestSchema,
  VerificationConnectionsSchema,
  VerificationsRequestSchema,
} from './verified-figures.schemas';

/** listings-service's subjects of verified figures (D24, ADR 0084), gathered into LISTINGS_RPC. */
export const VERIFIED_FIGURES_RPC = {
  verifications: defineRpc('listings.verifications.get', VerificationsRequestSchema, VerificationConnectionsSchema),
  /** Checks the restricted key with one read, keeps it sealed, and takes the first snapshot. */
  connectStripe: defineRpc('listings.verifications.stripe', ConnectStripeRequestSchema, VerificationConnectionsSchema),
  /** Issues a single-use state bound to the seller and listing, and the consent address. */
  startGa4: defineRpc('listings.verifications.ga4_start', StartGa4RequestSchema, Ga4ConsentSchema),
  /** Exchanges the consent's code (the state must be the caller's, unused and unexpired), keeps the refresh token sealed, takes the first snapshot. */
  finishGa4: defineRpc('listings.verifications.ga4_finish', FinishGa4RequestSchema, VerificationConnectionsSchema),
  /** Deletes the source's key or token and every figure taken from it. */
  disconnect: defineRpc('listings.verifications.disconnect', DisconnectRequestSchema, VerificationConnectionsSchema),
};

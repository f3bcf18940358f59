import { defineRpc } from '../rpc';
import { EmptyRequestSchema, IdRequestSchema, MessageResponseSchema } from '../common.schemas';
import {
  CreateSavedSearchSchema,
  SavedSearchesResponseSchema,
  SavedSearchSchema,
  UnsubscribeRequestSchema,
  UnsubscribeResponseSchema,
  UpdateSavedSearchRequestSchema,
} from './saved-search.schemas';

/** listings-service's subjects of saved searches (ADR 0074), gathered into LISTINGS_RPC. */
export const SAVED_SEARCH_RPC = {
  savedSearchList: defineRpc('listings.saved_searches.list', EmptyRequestSchema, SavedSearchesResponseSchema),
  savedSearchCreate: defineRpc('listings.saved_searches.create', CreateSavedSearchSchema, SavedSearchSchema),
  savedSearchUpdate: defineRpc('listings.saved_searches.update', UpdateSavedSearchRequestSchema, SavedSearchSchema),
  savedSearchDelete: defineRpc('listings.saved_searches.delete', IdRequestSchema, MessageResponseSchema),
  /** An alert email's signed link: no actor, the signature is the permission. */
  unsubscribe: defineRpc('listings.unsubscribe', UnsubscribeRequestSchema, UnsubscribeResponseSchema),
};

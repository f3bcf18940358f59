import { defineRoute } from '../http/define-route';
import { SiteInfoSchema } from './payments-mode.schemas';

/** What every page of the web app needs to know about this deployment (ADR 0033). */
export const SITE_ROUTES = {
  get: defineRoute({
    method: 'get',
    path: '/site',
    tag: 'site',
    summary: 'How this deployment runs: the payments provider and whether it is in test mode',
    description: 'With `payments.test_mode` (the sandbox provider) no real money moves; the web app shows a TEST MODE banner on every page.',
    auth: 'public',
    status: 200,
    reply: SiteInfoSchema,
    headers: { 'Cache-Control': 'public, max-age=60' },
  }),
};

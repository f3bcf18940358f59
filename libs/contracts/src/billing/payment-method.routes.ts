import { z } from 'zod';
import { defineRoute } from '../http/define-route';
import { SandboxCardSchema } from './payment.schemas';
import {
  PaymentMethodConfirmResultSchema,
  PaymentMethodSetupSchema,
  PaymentMethodStatusSchema,
  PaymentMethodSyncSchema,
  SetupIntentIdSchema,
} from './payment-method.schemas';

/** The signed-in member's saved card (ADR 0041): large bids need one. */
export const PAYMENT_METHOD_ROUTES = {
  status: defineRoute({
    method: 'get',
    path: '/user/payment-method',
    tag: 'payments',
    summary: 'Your saved card: whether one is verified, and its last four digits',
    description:
      "Only the caller's own. The platform keeps the last four digits and when the card was saved, never the card; `verified` stays false " +
      'until a card setup succeeds.',
    auth: 'user',
    status: 200,
    reply: PaymentMethodStatusSchema,
  }),
  setup: defineRoute({
    method: 'post',
    path: '/user/payment-method/setup',
    tag: 'payments',
    summary: 'Start saving a card: a SetupIntent to confirm in the browser',
    description:
      'Nothing is charged: the provider verifies the card (Stripe SetupIntent, or the sandbox with test cards). Bids above the large-bid threshold ' +
      'need a verified card (ADR 0041). 403 while an admin impersonates the member.',
    auth: 'user',
    status: 201,
    reply: PaymentMethodSetupSchema,
    errors: [403],
  }),
  sync: defineRoute({
    method: 'post',
    path: '/user/payment-method/sync',
    tag: 'payments',
    summary: 'Save the card of a SetupIntent the browser confirmed with Stripe.js',
    description:
      'Only a SetupIntent the caller started (404 otherwise); its state is read from the provider, never taken from the browser. A ' +
      "succeeded one becomes the saved card, replacing any earlier one; a failed one answers the provider's error and changes nothing. " +
      '403 while an admin impersonates the member.',
    auth: 'user',
    body: PaymentMethodSyncSchema,
    status: 200,
    reply: PaymentMethodConfirmResultSchema,
    errors: [403, 404],
  }),
  sandboxConfirm: defineRoute({
    method: 'post',
    path: '/sandbox/setup-intents/{id}/confirm',
    tag: 'payments',
    summary: "Verify a card with the sandbox's form (its stand-in for Stripe.js)",
    description: 'Test cards decide (4242… succeeds, 4000 0000 0000 0002 is declined); the number is never stored or logged. 404 when the provider is not the sandbox.',
    auth: 'user',
    params: z.object({ id: SetupIntentIdSchema }),
    body: SandboxCardSchema,
    status: 200,
    reply: PaymentMethodConfirmResultSchema,
    errors: [403, 404],
  }),
};

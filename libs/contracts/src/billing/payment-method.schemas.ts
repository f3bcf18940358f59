import { z } from 'zod';
import { IsoDateTimeSchema } from '../common.schemas';
import { ProviderErrorSchema, SandboxCardSchema } from './payment.schemas';

/** A member's saved card as billing knows it (ADR 0041): verified by a SetupIntent; only its last four digits are kept. */
export const PaymentMethodStatusSchema = z.strictObject({
  /** True once a card was verified through the provider's SetupIntent: bids above the large-bid threshold need it. */
  verified: z.boolean(),
  last4: z.string().regex(/^\d{4}$/).meta({ example: '4242' }).nullable(),
  saved_at: IsoDateTimeSchema.nullable(),
}).meta({ id: 'PaymentMethodStatus' });
export type PaymentMethodStatus = z.infer<typeof PaymentMethodStatusSchema>;

/** A SetupIntent to confirm in the browser: the sandbox's TEST MODE card form, or Stripe.js with the publishable key. */
export const PaymentMethodSetupSchema = z.strictObject({
  setup_intent_id: z.string(),
  client_secret: z.string(),
  provider: z.enum(['sandbox', 'stripe']),
  publishable_key: z.string().nullable(),
}).meta({ id: 'PaymentMethodSetup' });
export type PaymentMethodSetup = z.infer<typeof PaymentMethodSetupSchema>;

/** A SetupIntent id as the path names it (sandbox `seti_sbx_…` or Stripe's `seti_…`). */
export const SetupIntentIdSchema = z.string().regex(/^seti_[A-Za-z0-9_]{1,200}$/, 'Not a valid id').meta({ example: 'seti_1QxExample' });

/** POST /api/sandbox/setup-intents/{id}/confirm: the sandbox's card form (test cards decide, D12). */
export const SandboxSetupConfirmMessageSchema = z.object({ id: SetupIntentIdSchema, card: SandboxCardSchema }).strict();

/** POST /api/user/payment-method/sync: after Stripe.js confirmed a SetupIntent, billing reads it from the provider. */
export const PaymentMethodSyncSchema = z.object({ setup_intent_id: SetupIntentIdSchema }).strict().meta({ id: 'PaymentMethodSyncRequest' });

/** What confirming a card did, like Stripe.js's confirmCardSetup: the saved card, or the provider's error. */
export const PaymentMethodConfirmResultSchema = z.strictObject({
  payment_method: PaymentMethodStatusSchema,
  error: ProviderErrorSchema.nullable(),
}).meta({ id: 'PaymentMethodConfirmResult' });
export type PaymentMethodConfirmResult = z.infer<typeof PaymentMethodConfirmResultSchema>;

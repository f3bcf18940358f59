import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Actor, PaymentMethodConfirmResult, PaymentMethodSetup, PaymentMethodStatus, SandboxCard } from '@market/contracts';
import { forbidden, notFound, requireActor } from '@market/server-kit';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { PAYMENT_PROVIDER, type PaymentProvider, type ProviderSetupIntent } from '../payments/payment-provider';
import { SandboxProvider } from '../payments/sandbox.provider';
import { cardOutcome } from '../payments/payments.service';
import { PaymentMethodsRepository, type PaymentMethodRecord } from './payment-methods.repository';

const SETUP_NOT_FOUND = 'Card setup not found';

/** The member's own, as a password is (D14): an admin acting as them never saves a card in their name. */
function requireOwnCaller(actor: Actor | null): Actor {
  const user = requireActor(actor);
  if (user.impersonator_id) throw forbidden('A card cannot be saved while impersonating a user');
  return user;
}

/**
 * Saved cards (ADR 0041): a member verifies a card through the provider's SetupIntent (nothing is charged); bidding
 * asks whether one is on file before a large bid. Every method acts for the caller only.
 */
@Injectable()
export class PaymentMethodsService {
  constructor(
    private readonly methods: PaymentMethodsRepository,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'STRIPE_PUBLISHABLE_KEY'>,
  ) {}

  /** The caller's saved card, or none. */
  async status(actor: Actor | null): Promise<PaymentMethodStatus> {
    const user = requireActor(actor);
    return present(await this.methods.find(user.user_id));
  }

  /** A new SetupIntent for the caller, confirmed next in the browser (the sandbox's form or Stripe.js). */
  async setup(actor: Actor | null): Promise<PaymentMethodSetup> {
    const user = requireOwnCaller(actor);
    const setup = await this.provider.createSetupIntent({ user_id: user.user_id, idempotency_key: `setup-${user.user_id}-${randomUUID()}` });
    await this.methods.recordSetup(setup.id, user.user_id);
    return {
      setup_intent_id: setup.id,
      client_secret: setup.client_secret,
      provider: this.provider.name,
      publishable_key: this.provider.name === 'stripe' ? (this.config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
    };
  }

  /** The sandbox's card form: a test card decides; only the number's last four digits are kept (D12). */
  async sandboxConfirm(actor: Actor | null, setupIntentId: string, card: SandboxCard): Promise<PaymentMethodConfirmResult> {
    const user = requireOwnCaller(actor);
    if (!(this.provider instanceof SandboxProvider)) throw notFound('Not found');
    const setup = await this.ownSetup(user, setupIntentId);
    if (setup.client_secret !== card.client_secret) throw notFound(SETUP_NOT_FOUND);
    const outcome = cardOutcome(card);
    const { setup: confirmed, error } = await this.provider.confirmSetup(setupIntentId, outcome, card.card_number.replace(/\D/g, '').slice(-4));
    return { payment_method: present(await this.saveIfSucceeded(user, confirmed)), error };
  }

  /** After Stripe.js confirmed a SetupIntent: its state is read from the provider, never taken from the browser. */
  async sync(actor: Actor | null, setupIntentId: string): Promise<PaymentMethodConfirmResult> {
    const user = requireOwnCaller(actor);
    const setup = await this.ownSetup(user, setupIntentId);
    const error = setup.status === 'succeeded' || !setup.last_error ? null : { code: 'setup_failed', message: setup.last_error };
    return { payment_method: present(await this.saveIfSucceeded(user, setup)), error };
  }

  private async ownSetup(user: Actor, setupIntentId: string): Promise<ProviderSetupIntent> {
    if (!(await this.methods.setupBelongsTo(setupIntentId, user.user_id))) throw notFound(SETUP_NOT_FOUND);
    const setup = await this.provider.retrieveSetupIntent(setupIntentId);
    if (!setup) throw notFound(SETUP_NOT_FOUND);
    return setup;
  }

  private async saveIfSucceeded(user: Actor, setup: ProviderSetupIntent): Promise<PaymentMethodRecord | null> {
    if (setup.status !== 'succeeded') return this.methods.find(user.user_id);
    return this.methods.save({ user_id: user.user_id, provider: this.provider.name, setup_intent_id: setup.id, card_last4: setup.card_last4 });
  }
}

function present(record: PaymentMethodRecord | null): PaymentMethodStatus {
  return { verified: record !== null, last4: record?.card_last4 ?? null, saved_at: record?.saved_at.toISOString() ?? null };
}

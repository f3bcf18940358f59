import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Actor, PayoutAccountDto, PayoutOnboardingDto, SandboxOnboardingLink, SandboxOnboardingRequest, SandboxOnboardingResult } from '@market/contracts';
import { canReceivePayouts, payoutAccountStatusOf, requirementsDue } from '@market/domain';
import { notFound, requireActor } from '@market/server-kit';
import { authorizeOnboardingLink, authorizePayoutSetup } from './payout-account.policy';
import { BILLING_CONFIG, type BillingConfig } from '../billing.config';
import { PAYMENT_PROVIDER, ProviderError, type PaymentProvider } from '../payments/payment-provider';
import { refreshAccount } from './payout-account-refresh';
import { SandboxProvider } from '../payments/sandbox.provider';
import { PayoutAccountsRepository, type PayoutAccountRecord } from './payout-accounts.repository';
import { PayoutSender } from './payout-sender';

const LINK_NOT_FOUND = 'This onboarding link has expired or is not yours; ask for a new one from Dashboard \u2192 Payouts.';

/** A status and what is due as the API shows them. */
function present(record: Pick<PayoutAccountRecord, 'status' | 'requirements_due'> | null): PayoutAccountDto {
  return { status: record?.status ?? 'not_started', requirements_due: record?.requirements_due ?? [] };
}

/**
 * Sellers' payout accounts (D22): the provider's hosted onboarding makes them (identity checks are the provider's; the
 * platform keeps only the account's id and status), and the account's state follows the provider's account.updated.
 * When an account becomes able to take payouts, the payouts waiting for it are sent.
 */
@Injectable()
export class PayoutAccountsService {
  private readonly logger = new Logger('PayoutAccounts');

  constructor(
    private readonly accounts: PayoutAccountsRepository,
    private readonly sender: PayoutSender,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(BILLING_CONFIG) private readonly config: Pick<BillingConfig, 'PUBLIC_URL'>,
  ) {}

  /** The caller's account; one not yet enabled is read again from the provider (a missed notice heals on the next look). */
  async get(actor: Actor | null): Promise<PayoutAccountDto> {
    const user = requireActor(actor);
    const record = await this.accounts.find(user.user_id);
    if (!record || record.status === 'enabled') return present(record);
    const fresh = await this.syncAccount(record.provider_account_id).catch((error: unknown) => {
      // The provider being slow or down must not hide what we know: the stored status stands.
      this.logger.warn(`Could not refresh payout account ${record.provider_account_id}: ${(error as Error).message}`);
      return null;
    });
    return present(fresh ? await this.accounts.find(user.user_id) : record);
  }

  /** A link to the provider's hosted onboarding, making the caller's account first if they have none. */
  async onboarding(actor: Actor | null): Promise<PayoutOnboardingDto> {
    const user = requireActor(actor);
    authorizePayoutSetup(user);
    let record = await this.accounts.find(user.user_id);
    if (!record) {
      const account = await this.provider.connect.createAccount({ user_id: user.user_id, idempotency_key: `payout-account-${user.user_id}` });
      record = await this.accounts.saveNew({
        user_id: user.user_id,
        provider: this.provider.name,
        provider_account_id: account.id,
        status: payoutAccountStatusOf(account),
        requirements_due: requirementsDue(account),
      });
    }
    const site = this.config.PUBLIC_URL.replace(/\/+$/, '');
    const link = await this.provider.connect.createAccountLink({
      account_id: record.provider_account_id,
      return_url: `${site}/dashboard?tab=payouts&onboarding=return`,
      refresh_url: `${site}/dashboard?tab=payouts&onboarding=refresh`,
    });
    return { url: link.url };
  }

  /** The sandbox's onboarding page: its link's account, for the account's own seller only. */
  async sandboxLink(actor: Actor | null, linkId: string): Promise<SandboxOnboardingLink> {
    const { link, record } = await this.ownLink(actor, linkId);
    return { id: link.id, status: record?.status ?? 'not_started', expired: link.expired };
  }

  /** The sandbox's onboarding page was completed (or a test chose another outcome); the account is brought up to date. */
  async sandboxComplete(actor: Actor | null, linkId: string, request: SandboxOnboardingRequest): Promise<SandboxOnboardingResult> {
    const { sandbox, link } = await this.ownLink(actor, linkId);
    if (link.expired) throw notFound(LINK_NOT_FOUND);
    try {
      await sandbox.connect.completeOnboarding(linkId, request.outcome);
    } catch (error) {
      if (error instanceof ProviderError) throw notFound(LINK_NOT_FOUND);
      throw error;
    }
    // The account.updated notice reached the router already; this makes the answer independent of its delivery.
    await this.syncAccount(link.account_id);
    return { account: present(await this.accounts.find(link.user_id)), return_url: link.return_url };
  }

  /**
   * Brings a connected account's status up to what the provider says now (account.updated, or a look); when it became
   * able to take payouts, its seller's waiting payouts go out. False when the account is not one of ours.
   */
  async syncAccount(accountId: string): Promise<boolean> {
    const changed = await refreshAccount(this.provider.connect, this.accounts, accountId);
    if (!changed) return false;
    const status = changed.after.status;
    if (changed.before !== status) this.logger.log(`Payout account of ${changed.after.user_id}: ${changed.before} -> ${status}`);
    if (canReceivePayouts(status)) await this.sender.sendWaitingFor(changed.after.user_id);
    return true;
  }

  private async ownLink(actor: Actor | null, linkId: string) {
    const user = requireActor(actor);
    if (!(this.provider instanceof SandboxProvider)) throw notFound('Not found');
    const sandbox = this.provider;
    const link = await sandbox.connect.link(linkId);
    authorizeOnboardingLink(user, link, LINK_NOT_FOUND);
    return { sandbox, link, record: await this.accounts.find(user.user_id) };
  }
}

import { payoutAccountStatusOf, requirementsDue, type PayoutAccountStatus } from '@market/domain';
import type { ConnectProvider } from '../payments/payment-provider';
import type { PayoutAccountRecord, PayoutAccountsRepository } from './payout-accounts.repository';

/**
 * Reads a connected account from the provider and stores its status (D22): what account.updated does, and what a look
 * does when a notice may have been missed. Null when the provider or this service does not know the account.
 */
export async function refreshAccount(
  connect: Pick<ConnectProvider, 'retrieveAccount'>,
  accounts: PayoutAccountsRepository,
  accountId: string,
): Promise<{ before: PayoutAccountStatus; after: PayoutAccountRecord } | null> {
  const account = await connect.retrieveAccount(accountId);
  if (!account) return null;
  return accounts.updateStatus(accountId, payoutAccountStatusOf(account), requirementsDue(account));
}

import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { PayoutAccountsService } from './payout-accounts.service';
import { PayoutsService } from './payouts.service';

/** NATS handlers of sellers' payout accounts and payouts (D22); the services check every actor again. */
@Controller()
export class PayoutsController {
  constructor(
    private readonly accounts: PayoutAccountsService,
    private readonly payouts: PayoutsService,
  ) {}

  @RpcHandler(RPC.billing.payoutAccount)
  account(_input: RpcParsed<typeof RPC.billing.payoutAccount>, call: RpcCall) {
    return this.accounts.get(call.actor);
  }

  @RpcHandler(RPC.billing.payoutOnboarding)
  onboarding(_input: RpcParsed<typeof RPC.billing.payoutOnboarding>, call: RpcCall) {
    return this.accounts.onboarding(call.actor);
  }

  @RpcHandler(RPC.billing.sandboxOnboardingLink)
  sandboxLink(input: RpcParsed<typeof RPC.billing.sandboxOnboardingLink>, call: RpcCall) {
    return this.accounts.sandboxLink(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.sandboxCompleteOnboarding)
  sandboxComplete(input: RpcParsed<typeof RPC.billing.sandboxCompleteOnboarding>, call: RpcCall) {
    return this.accounts.sandboxComplete(call.actor, input.id, input.request);
  }

  @RpcHandler(RPC.billing.sellerPayouts)
  list(_input: RpcParsed<typeof RPC.billing.sellerPayouts>, call: RpcCall) {
    return this.payouts.sellerPayouts(call.actor);
  }
}

import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { PaymentMethodsService } from './payment-methods.service';

/** NATS handlers of saved cards (ADR 0041); the service re-checks every actor. */
@Controller()
export class PaymentMethodsController {
  constructor(private readonly methods: PaymentMethodsService) {}

  @RpcHandler(RPC.billing.paymentMethodStatus)
  status(_input: unknown, call: RpcCall) {
    return this.methods.status(call.actor);
  }

  @RpcHandler(RPC.billing.setupPaymentMethod)
  setup(_input: unknown, call: RpcCall) {
    return this.methods.setup(call.actor);
  }

  @RpcHandler(RPC.billing.sandboxConfirmSetup)
  sandboxConfirm(input: RpcParsed<typeof RPC.billing.sandboxConfirmSetup>, call: RpcCall) {
    return this.methods.sandboxConfirm(call.actor, input.id, input.card);
  }

  @RpcHandler(RPC.billing.syncPaymentMethod)
  sync(input: RpcParsed<typeof RPC.billing.syncPaymentMethod>, call: RpcCall) {
    return this.methods.sync(call.actor, input.setup_intent_id);
  }
}

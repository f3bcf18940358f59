import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { badRequest, RpcHandler, type RpcCall } from '@market/server-kit';
import { PaymentsService } from './payments.service';
import { StripeWebhooks } from './stripe-webhooks';
import { PaymentsModeService } from './payments-mode.service';

/** NATS handlers of card payments; the service re-checks every message and its actor (ADR 0020). */
@Controller()
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly stripeWebhooks: StripeWebhooks,
    private readonly mode: PaymentsModeService,
  ) {}

  /** Public: the provider and whether it is the sandbox (every page's TEST MODE banner, ADR 0033). */
  @RpcHandler(RPC.billing.paymentsMode)
  paymentsMode() {
    return this.mode.current();
  }

  /** A Stripe webhook's bytes and signature from the gateway; no actor (Stripe's signature is the authentication). */
  @RpcHandler(RPC.billing.stripeWebhook)
  stripeWebhook(input: RpcParsed<typeof RPC.billing.stripeWebhook>) {
    return this.stripeWebhooks.receive(input.payload_base64, input.signature);
  }

  @RpcHandler(RPC.billing.createPayment)
  create(input: RpcParsed<typeof RPC.billing.createPayment>, call: RpcCall) {
    if (input.request.invoice_id && input.request.invoice_id !== input.id) throw badRequest('invoice_id does not match the invoice in the path');
    return this.payments.createPayment(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.createCheckoutSession)
  checkout(input: RpcParsed<typeof RPC.billing.createCheckoutSession>, call: RpcCall) {
    return this.payments.createCheckoutSession(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.paymentStatus)
  status(input: RpcParsed<typeof RPC.billing.paymentStatus>, call: RpcCall) {
    return this.payments.status(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.sandboxConfirm)
  confirm(input: RpcParsed<typeof RPC.billing.sandboxConfirm>, call: RpcCall) {
    return this.payments.sandboxConfirm(call.actor, input.id, input.card);
  }

  @RpcHandler(RPC.billing.sandboxConfirmStep)
  confirmStep(input: RpcParsed<typeof RPC.billing.sandboxConfirmStep>, call: RpcCall) {
    return this.payments.sandboxConfirmStep(call.actor, input.id, input.request.client_secret);
  }

  @RpcHandler(RPC.billing.sandboxCompleteCheckout)
  completeCheckout(input: RpcParsed<typeof RPC.billing.sandboxCompleteCheckout>, call: RpcCall) {
    return this.payments.sandboxCompleteCheckout(call.actor, input.id, input.card);
  }

  @RpcHandler(RPC.billing.adminListPayments)
  adminList(_input: unknown, call: RpcCall) {
    return this.payments.adminList(call.actor);
  }

  @RpcHandler(RPC.billing.adminCapture)
  capture(input: RpcParsed<typeof RPC.billing.adminCapture>, call: RpcCall) {
    return this.payments.capture(call.actor, input.id, input.request);
  }

  @RpcHandler(RPC.billing.adminRefund)
  refund(input: RpcParsed<typeof RPC.billing.adminRefund>, call: RpcCall) {
    return this.payments.refund(call.actor, input.id, input.request);
  }
}

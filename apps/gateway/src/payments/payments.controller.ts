import { Body, Controller, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  API,
  PAYMENT_IN_PROGRESS_MESSAGE,
  PROBLEM_MEDIA_TYPE,
  problemOf,
  RPC,
  type Actor,
  type CapturePaymentRequest,
  type CreatePaymentRequest,
  type RefundPaymentRequest,
  type ResolveDisputeRequest,
  type SandboxCard,
  type SandboxCheckoutCard,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { IdempotencyKey, type IdempotencyRequest } from '../http/idempotency-key.decorator';

/**
 * Card payments (SPEC §7, D11, D12, ADR 0020): the billing service decides, this only routes. A payment already in
 * progress is answered 409 with the SPEC §8 detail plus the open payment's id and client secret, so the dialog can
 * continue it.
 */
@Controller()
export class PaymentsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.payments.create)
  async createPayment(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: CreatePaymentRequest | undefined,
    @Res({ passthrough: true }) res: Response,
    @IdempotencyKey() idempotency: IdempotencyRequest | null,
  ) {
    const answer = await this.rpc.call(RPC.billing.createPayment, { id, request: body ?? {} }, actor, { idempotency });
    if (!answer.existing) return answer;
    res.status(409).type(PROBLEM_MEDIA_TYPE);
    const { type, title, code } = problemOf({ code: 'conflict', status: 409, detail: PAYMENT_IN_PROGRESS_MESSAGE });
    return { type, title, code, detail: PAYMENT_IN_PROGRESS_MESSAGE, ...answer };
  }

  @Route(API.payments.checkoutSession)
  createCheckoutSession(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.createCheckoutSession, { id }, actor);
  }

  @Route(API.payments.status)
  status(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.billing.paymentStatus, { id }, actor);
  }

  /** The sandbox card form's confirmation (its stand-in for Stripe.js); 404 when the provider is not the sandbox. */
  @Route(API.payments.sandboxConfirm)
  confirm(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() card: SandboxCard) {
    return this.rpc.call(RPC.billing.sandboxConfirm, { id, card }, actor);
  }

  @Route(API.payments.sandboxConfirmStep)
  confirmStep(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: { client_secret: string }) {
    return this.rpc.call(RPC.billing.sandboxConfirmStep, { id, request: body }, actor);
  }

  /** The sandbox's hosted checkout page submits here and goes where the answer says. */
  @Route(API.payments.sandboxCompleteCheckout)
  completeCheckout(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() card: SandboxCheckoutCard) {
    return this.rpc.call(RPC.billing.sandboxCompleteCheckout, { id, card }, actor);
  }
}

/** The admin Payments tab (SPEC §2, §7): real admins only, never under impersonation (D14). */
@Controller()
export class AdminPaymentsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.adminBilling.paymentIntents)
  list(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.billing.adminListPayments, {}, actor);
  }

  /** "Release Funds": captures the hold; the invoice is paid. */
  @Route(API.adminBilling.capture)
  capture(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: CapturePaymentRequest | undefined,
    @IdempotencyKey() idempotency: IdempotencyRequest | null,
  ) {
    return this.rpc.call(RPC.billing.adminCapture, { id, request: body ?? {} }, actor, { idempotency });
  }

  /** "Refund": cancels an uncaptured hold or refunds a captured payment. */
  @Route(API.adminBilling.refund)
  refund(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: RefundPaymentRequest | undefined,
    @IdempotencyKey() idempotency: IdempotencyRequest | null,
  ) {
    return this.rpc.call(RPC.billing.adminRefund, { id, request: body ?? {} }, actor, { idempotency });
  }

  /** Decides a disputed invoice: release or refund, with the note both parties read (ADR 0039). */
  @Route(API.adminBilling.resolveDispute)
  resolveDispute(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: ResolveDisputeRequest) {
    return this.rpc.call(RPC.billing.adminResolveDispute, { id, request: body }, actor);
  }
}

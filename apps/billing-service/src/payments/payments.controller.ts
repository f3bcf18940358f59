import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import {
  CapturePaymentRequestSchema,
  CreatePaymentRequestSchema,
  RefundPaymentRequestSchema,
  RPC,
  SandboxCardSchema,
  SandboxCheckoutCardSchema,
  SandboxConfirmStepSchema,
  StripeWebhookMessageSchema,
  UuidSchema,
  type RpcEnvelope,
} from '@market/contracts';
import { badRequest, parseInput } from '@market/server-kit';
import { PaymentsService } from './payments.service';
import { StripeWebhooks } from './stripe-webhooks';

const IdMessage = z.object({ id: UuidSchema }).strict();
const CreateMessage = z.object({ id: UuidSchema, request: CreatePaymentRequestSchema }).strict();
const CardMessage = z.object({ id: UuidSchema, card: SandboxCardSchema }).strict();
const StepMessage = z.object({ id: UuidSchema, request: SandboxConfirmStepSchema }).strict();
const CheckoutMessage = z.object({ id: z.string().regex(/^cs_sbx_[0-9a-f]{24}$/, 'Not a valid id'), card: SandboxCheckoutCardSchema }).strict();
const CaptureMessage = z.object({ id: UuidSchema, request: CapturePaymentRequestSchema }).strict();
const RefundMessage = z.object({ id: UuidSchema, request: RefundPaymentRequestSchema }).strict();

/** NATS handlers of card payments; the service re-checks every message and its actor (ADR 0020). */
@Controller()
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly stripeWebhooks: StripeWebhooks,
  ) {}

  /** A Stripe webhook's bytes and signature from the gateway; no actor (Stripe's signature is the authentication). */
  @MessagePattern(RPC.billing.stripeWebhook)
  stripeWebhook(@Payload() message: RpcEnvelope) {
    const { payload_base64, signature } = parseInput(StripeWebhookMessageSchema, message.data);
    return this.stripeWebhooks.receive(payload_base64, signature);
  }

  @MessagePattern(RPC.billing.createPayment)
  create(@Payload() message: RpcEnvelope) {
    const { id, request } = parseInput(CreateMessage, message.data);
    if (request.invoice_id && request.invoice_id !== id) throw badRequest('invoice_id does not match the invoice in the path');
    return this.payments.createPayment(message.meta.actor, id);
  }

  @MessagePattern(RPC.billing.createCheckoutSession)
  checkout(@Payload() message: RpcEnvelope) {
    return this.payments.createCheckoutSession(message.meta.actor, parseInput(IdMessage, message.data).id);
  }

  @MessagePattern(RPC.billing.paymentStatus)
  status(@Payload() message: RpcEnvelope) {
    return this.payments.status(message.meta.actor, parseInput(IdMessage, message.data).id);
  }

  @MessagePattern(RPC.billing.sandboxConfirm)
  confirm(@Payload() message: RpcEnvelope) {
    const { id, card } = parseInput(CardMessage, message.data);
    return this.payments.sandboxConfirm(message.meta.actor, id, card);
  }

  @MessagePattern(RPC.billing.sandboxConfirmStep)
  confirmStep(@Payload() message: RpcEnvelope) {
    const { id, request } = parseInput(StepMessage, message.data);
    return this.payments.sandboxConfirmStep(message.meta.actor, id, request.client_secret);
  }

  @MessagePattern(RPC.billing.sandboxCompleteCheckout)
  completeCheckout(@Payload() message: RpcEnvelope) {
    const { id, card } = parseInput(CheckoutMessage, message.data);
    return this.payments.sandboxCompleteCheckout(message.meta.actor, id, card);
  }

  @MessagePattern(RPC.billing.adminListPayments)
  adminList(@Payload() message: RpcEnvelope) {
    return this.payments.adminList(message.meta.actor);
  }

  @MessagePattern(RPC.billing.adminCapture)
  capture(@Payload() message: RpcEnvelope) {
    const { id, request } = parseInput(CaptureMessage, message.data);
    return this.payments.capture(message.meta.actor, id, request);
  }

  @MessagePattern(RPC.billing.adminRefund)
  refund(@Payload() message: RpcEnvelope) {
    const { id, request } = parseInput(RefundMessage, message.data);
    return this.payments.refund(message.meta.actor, id, request);
  }
}

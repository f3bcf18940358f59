import { Body, Controller, Get, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { z } from 'zod';
import {
  CapturePaymentRequestSchema,
  CreatePaymentRequestSchema,
  PAYMENT_IN_PROGRESS_MESSAGE,
  RefundPaymentRequestSchema,
  RPC,
  SandboxCardSchema,
  SandboxCheckoutCardSchema,
  SandboxConfirmStepSchema,
  UuidSchema,
  type Actor,
  type AdminPaymentIntentDto,
  type CapturePaymentRequest,
  type CheckoutSessionResponse,
  type CreatePaymentRequest,
  type CreatePaymentResponse,
  type PaymentActionResponse,
  type PaymentIntentStatusDto,
  type RefundPaymentRequest,
  type SandboxCard,
  type SandboxCheckoutCard,
  type SandboxCheckoutResult,
  type SandboxConfirmResult,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse, ZodBody } from '../http/zod-body';
import { AdminGuard, CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

const SessionIdSchema = z.string().regex(/^cs_sbx_[0-9a-f]{24}$/, 'Not a valid id');

/**
 * Card payments (SPEC §7, D11, D12, ADR 0020): the billing service decides, this only routes. A payment already in
 * progress is answered 409 with the SPEC §8 detail plus the open payment's id and client secret, so the dialog can
 * continue it.
 */
@ApiTags('payments')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller()
export class PaymentsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Post('invoices/:id/create-payment')
  @HttpCode(200)
  @ZodBody(CreatePaymentRequestSchema)
  @ApiConflictResponse({ description: '{detail, existing: true, payment_intent_id, client_secret, status, provider}: a payment is in progress' })
  async createPayment(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: CreatePaymentRequest | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatePaymentResponse | (CreatePaymentResponse & { detail: string })> {
    const answer = await this.rpc.send<CreatePaymentResponse>(RPC.billing.createPayment, { id: parse(UuidSchema, id, 'path'), request: body ?? {} }, actor);
    if (!answer.existing) return answer;
    res.status(409);
    return { detail: PAYMENT_IN_PROGRESS_MESSAGE, ...answer };
  }

  @Post('invoices/:id/create-stripe-session')
  @HttpCode(200)
  createCheckoutSession(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<CheckoutSessionResponse> {
    return this.rpc.send(RPC.billing.createCheckoutSession, { id: parse(UuidSchema, id, 'path') }, actor);
  }

  @Get('payment-intents/:id/status')
  status(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<PaymentIntentStatusDto> {
    return this.rpc.send(RPC.billing.paymentStatus, { id: parse(UuidSchema, id, 'path') }, actor);
  }

  /** The sandbox card form's confirmation (its stand-in for Stripe.js); 404 when the provider is not the sandbox. */
  @Post('sandbox/payment-intents/:id/confirm')
  @HttpCode(200)
  @ZodBody(SandboxCardSchema)
  confirm(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() card: SandboxCard): Promise<SandboxConfirmResult> {
    return this.rpc.send(RPC.billing.sandboxConfirm, { id: parse(UuidSchema, id, 'path'), card }, actor);
  }

  @Post('sandbox/payment-intents/:id/confirm-step')
  @HttpCode(200)
  @ZodBody(SandboxConfirmStepSchema)
  confirmStep(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: { client_secret: string }): Promise<SandboxConfirmResult> {
    return this.rpc.send(RPC.billing.sandboxConfirmStep, { id: parse(UuidSchema, id, 'path'), request: body }, actor);
  }

  /** The sandbox's hosted checkout page submits here and goes where the answer says. */
  @Post('sandbox/checkout-sessions/:id/complete')
  @HttpCode(200)
  @ZodBody(SandboxCheckoutCardSchema)
  completeCheckout(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() card: SandboxCheckoutCard): Promise<SandboxCheckoutResult> {
    return this.rpc.send(RPC.billing.sandboxCompleteCheckout, { id: parse(SessionIdSchema, id, 'path'), card }, actor);
  }
}

/** The admin Payments tab (SPEC §2, §7): real admins only, never under impersonation (D14). */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard, AdminGuard)
@Controller('admin/payment-intents')
export class AdminPaymentsController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Get()
  list(@CurrentActor() actor: Actor): Promise<{ payment_intents: AdminPaymentIntentDto[] }> {
    return this.rpc.send(RPC.billing.adminListPayments, {}, actor);
  }

  /** "Release Funds": captures the hold; the invoice is paid. */
  @Post(':id/capture')
  @HttpCode(200)
  @ZodBody(CapturePaymentRequestSchema)
  capture(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: CapturePaymentRequest | undefined): Promise<PaymentActionResponse> {
    return this.rpc.send(RPC.billing.adminCapture, { id: parse(UuidSchema, id, 'path'), request: body ?? {} }, actor);
  }

  /** "Refund": cancels an uncaptured hold or refunds a captured payment. */
  @Post(':id/refund')
  @HttpCode(200)
  @ZodBody(RefundPaymentRequestSchema)
  refund(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: RefundPaymentRequest | undefined): Promise<PaymentActionResponse> {
    return this.rpc.send(RPC.billing.adminRefund, { id: parse(UuidSchema, id, 'path'), request: body ?? {} }, actor);
  }
}

import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { RPC, UuidSchema, type RpcEnvelope } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { InvoicesService } from './invoices.service';

const InvoiceIdMessage = z.object({ id: UuidSchema }).strict();
const BuyNowMessage = z.object({ listing_id: UuidSchema }).strict();

/** NATS handlers of invoices and buy-now; the service re-checks every message and its actor. */
@Controller()
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @MessagePattern(RPC.billing.listInvoices)
  list(@Payload() message: RpcEnvelope) {
    return this.invoices.list(message.meta.actor);
  }

  @MessagePattern(RPC.billing.getInvoice)
  get(@Payload() message: RpcEnvelope) {
    return this.invoices.get(message.meta.actor, parseInput(InvoiceIdMessage, message.data).id);
  }

  @MessagePattern(RPC.billing.invoicePdf)
  pdf(@Payload() message: RpcEnvelope) {
    return this.invoices.pdf(message.meta.actor, parseInput(InvoiceIdMessage, message.data).id);
  }

  @MessagePattern(RPC.billing.markPaid)
  markPaid(@Payload() message: RpcEnvelope) {
    return this.invoices.markPaid(message.meta.actor, parseInput(InvoiceIdMessage, message.data).id);
  }

  @MessagePattern(RPC.billing.buyNow)
  buyNow(@Payload() message: RpcEnvelope) {
    return this.invoices.buyNow(message.meta.actor, parseInput(BuyNowMessage, message.data).listing_id);
  }
}

import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { InvoicesService } from './invoices.service';

/** NATS handlers of invoices and buy-now; the service re-checks every message and its actor. */
@Controller()
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @RpcHandler(RPC.billing.listInvoices)
  list(_input: unknown, call: RpcCall) {
    return this.invoices.list(call.actor);
  }

  @RpcHandler(RPC.billing.getInvoice)
  get(input: RpcParsed<typeof RPC.billing.getInvoice>, call: RpcCall) {
    return this.invoices.get(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.invoicePdf)
  pdf(input: RpcParsed<typeof RPC.billing.invoicePdf>, call: RpcCall) {
    return this.invoices.pdf(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.markPaid)
  markPaid(input: RpcParsed<typeof RPC.billing.markPaid>, call: RpcCall) {
    return this.invoices.markPaid(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.buyNow)
  buyNow(input: RpcParsed<typeof RPC.billing.buyNow>, call: RpcCall) {
    return this.invoices.buyNow(call.actor, input.listing_id);
  }
}

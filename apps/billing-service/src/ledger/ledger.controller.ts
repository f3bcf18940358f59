import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { LedgerService } from './ledger.service';

/** NATS handlers of the admin Ledger tab (D22); the service checks the admin again. */
@Controller()
export class LedgerController {
  constructor(private readonly ledger: LedgerService) {}

  @RpcHandler(RPC.billing.adminLedger)
  overview(_input: RpcParsed<typeof RPC.billing.adminLedger>, call: RpcCall) {
    return this.ledger.overview(call.actor);
  }

  @RpcHandler(RPC.billing.adminInvoiceLedger)
  invoice(input: RpcParsed<typeof RPC.billing.adminInvoiceLedger>, call: RpcCall) {
    return this.ledger.invoiceTrail(call.actor, input.id);
  }

  @RpcHandler(RPC.billing.adminReconcile)
  reconcile(_input: RpcParsed<typeof RPC.billing.adminReconcile>, call: RpcCall) {
    return this.ledger.reconcile(call.actor);
  }
}

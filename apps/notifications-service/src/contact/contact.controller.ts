import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { ContactService } from './contact.service';

/** NATS handler of the contact form. */
@Controller()
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @RpcHandler(RPC.notifications.submitContact)
  submit(input: RpcParsed<typeof RPC.notifications.submitContact>, call: RpcCall) {
    return this.contact.submit(call.actor, input.form, input.client_address);
  }
}

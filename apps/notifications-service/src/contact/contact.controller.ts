import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC, type RpcEnvelope } from '@market/contracts';
import { ContactService } from './contact.service';

/** NATS handler of the contact form. */
@Controller()
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @MessagePattern(RPC.notifications.submitContact)
  submit(@Payload() message: RpcEnvelope) {
    return this.contact.submit(message.meta.actor, message.data);
  }
}

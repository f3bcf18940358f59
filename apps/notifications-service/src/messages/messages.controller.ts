import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { RPC, UuidSchema, type RpcEnvelope } from '@market/contracts';
import { parseInput } from '@market/server-kit';
import { MessagesService } from './messages.service';

const MessageIdMessage = z.object({ id: UuidSchema.transform((v) => v.toLowerCase()) }).strict();

/** NATS handlers of user messages; the service checks the actor and re-validates the body. */
@Controller()
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @MessagePattern(RPC.notifications.sendMessage)
  send(@Payload() message: RpcEnvelope) {
    return this.messages.send(message.meta.actor, message.data);
  }

  @MessagePattern(RPC.notifications.listMessages)
  list(@Payload() message: RpcEnvelope) {
    return this.messages.list(message.meta.actor);
  }

  @MessagePattern(RPC.notifications.unreadCount)
  unreadCount(@Payload() message: RpcEnvelope) {
    return this.messages.unreadCount(message.meta.actor);
  }

  @MessagePattern(RPC.notifications.markMessageRead)
  markRead(@Payload() message: RpcEnvelope) {
    return this.messages.markRead(message.meta.actor, parseInput(MessageIdMessage, message.data).id);
  }
}

import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { MessagesService } from './messages.service';

/** NATS handlers of user messages; each message is parsed by its subject's schema, the service checks the actor. */
@Controller()
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @RpcHandler(RPC.notifications.sendMessage)
  send(input: RpcParsed<typeof RPC.notifications.sendMessage>, call: RpcCall) {
    return this.messages.send(call.actor, input);
  }

  @RpcHandler(RPC.notifications.listMessages)
  list(_input: unknown, call: RpcCall) {
    return this.messages.list(call.actor);
  }

  @RpcHandler(RPC.notifications.unreadCount)
  unreadCount(_input: unknown, call: RpcCall) {
    return this.messages.unreadCount(call.actor);
  }

  @RpcHandler(RPC.notifications.markMessageRead)
  markRead(input: RpcParsed<typeof RPC.notifications.markMessageRead>, call: RpcCall) {
    return this.messages.markRead(call.actor, input.id);
  }
}

import { Body, Controller, Param } from '@nestjs/common';
import { API, RPC, type Actor, type SendMessage } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { IdempotencyKey, type IdempotencyRequest } from '../http/idempotency-key.decorator';

/** Messages between users (SPEC §7): send, list, unread count, mark read. */
@Controller()
export class MessagesController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Route(API.messages.send)
  send(@CurrentActor() actor: Actor, @Body() body: SendMessage, @IdempotencyKey() idempotency: IdempotencyRequest | null) {
    return this.rpc.call(RPC.notifications.sendMessage, body, actor, { idempotency });
  }

  @Route(API.messages.list)
  list(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.notifications.listMessages, {}, actor);
  }

  @Route(API.messages.unreadCount)
  unreadCount(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.notifications.unreadCount, {}, actor);
  }

  /** The receiver marks a message read (idempotent); answers the new unread count. */
  @Route(API.messages.markRead)
  markRead(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.notifications.markMessageRead, { id }, actor);
  }
}

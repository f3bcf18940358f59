import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  RPC,
  SendMessageSchema,
  UuidSchema,
  type Actor,
  type MessagesResponse,
  type SendMessage,
  type SendMessageResponse,
  type UnreadCountResponse,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse, ZodBody } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';

/** Messages between users (SPEC §7): send, list, unread count, mark read. */
@ApiTags('messages')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('messages')
export class MessagesController {
  constructor(private readonly rpc: GatewayRpc) {}

  @Post()
  @ZodBody(SendMessageSchema)
  send(@CurrentActor() actor: Actor, @Body() body: SendMessage): Promise<SendMessageResponse> {
    return this.rpc.send(RPC.notifications.sendMessage, body, actor);
  }

  @Get()
  list(@CurrentActor() actor: Actor): Promise<MessagesResponse> {
    return this.rpc.send(RPC.notifications.listMessages, {}, actor);
  }

  @Get('unread-count')
  unreadCount(@CurrentActor() actor: Actor): Promise<UnreadCountResponse> {
    return this.rpc.send(RPC.notifications.unreadCount, {}, actor);
  }

  /** The receiver marks a message read (idempotent); answers the new unread count. */
  @Post(':id/read')
  @HttpCode(200)
  markRead(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ message: string; unread_count: number }> {
    return this.rpc.send(RPC.notifications.markMessageRead, { id: parse(UuidSchema, id, 'path') }, actor);
  }
}

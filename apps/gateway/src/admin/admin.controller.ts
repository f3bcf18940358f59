import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  AdminUpdateUserRequestSchema,
  AdminUsersQuerySchema,
  SaveSettingsSchema,
  RPC,
  UuidSchema,
  type Actor,
  type AdminStats,
  type AdminUpdateUserRequest,
  type AdminUsersResponse,
  type AuditEntry,
  type EmailLogEntry,
  type ImpersonationResponse,
  type PlatformSettings,
  type PlatformSettingsView,
  type UserDto,
} from '@market/contracts';
import { badRequest } from '@market/server-kit';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse, ZodBody } from '../http/zod-body';
import { AdminGuard, CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { AuditTrail } from '../security/audit-trail';

/** /api/admin: users, stats, the audit log and recent emails; starting impersonation. Real admins only. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard, AdminGuard)
@Controller('admin')
export class AdminController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly audit: AuditTrail,
  ) {}

  @Get('stats')
  stats(@CurrentActor() actor: Actor): Promise<AdminStats> {
    return this.rpc.send(RPC.admin.stats, {}, actor);
  }

  @Get('users')
  users(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<AdminUsersResponse> {
    return this.rpc.send(RPC.admin.users, parse(AdminUsersQuerySchema, query, 'query'), actor);
  }

  @Patch('users/:id')
  @ZodBody(AdminUpdateUserRequestSchema)
  updateUser(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AdminUpdateUserRequest): Promise<UserDto> {
    return this.rpc.send(RPC.auth.updateUser, { id: parse(UuidSchema, id, 'path'), changes: body }, actor);
  }

  @Delete('users/:id')
  deleteUser(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    return this.rpc.send(RPC.auth.deleteUser, { id: parse(UuidSchema, id, 'path') }, actor);
  }

  @Post('impersonate/:id')
  @HttpCode(200)
  async impersonate(@CurrentActor() actor: Actor, @Param('id') id: string, @Req() request: Request): Promise<ImpersonationResponse> {
    const result = await this.rpc.send<ImpersonationResponse>(RPC.auth.impersonate, { id: parse(UuidSchema, id, 'path') }, actor);
    await this.audit.record(actor.user_id, result.target_user.id, 'impersonation.start', request.method, request.path);
    return result;
  }

  @Get('audit-log')
  auditLog(@CurrentActor() actor: Actor): Promise<{ entries: AuditEntry[] }> {
    return this.rpc.send(RPC.admin.auditLog, {}, actor);
  }

  @Get('settings')
  settings(@CurrentActor() actor: Actor): Promise<PlatformSettingsView> {
    return this.rpc.send(RPC.admin.getSettings, {}, actor);
  }

  @Post('settings')
  @HttpCode(200)
  @ZodBody(SaveSettingsSchema)
  saveSettings(@CurrentActor() actor: Actor, @Body() body: PlatformSettings): Promise<PlatformSettingsView> {
    return this.rpc.send(RPC.admin.updateSettings, body, actor);
  }

  @Get('emails')
  emails(@CurrentActor() actor: Actor): Promise<{ emails: EmailLogEntry[] }> {
    return this.rpc.send(RPC.notifications.recentEmails, {}, actor);
  }
}

/** POST /api/admin/stop-impersonation: the one admin path an impersonation token may (and must) use. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('admin')
export class StopImpersonationController {
  constructor(private readonly audit: AuditTrail) {}

  @Post('stop-impersonation')
  @HttpCode(200)
  async stop(@CurrentActor() actor: Actor, @Req() request: Request): Promise<{ message: string }> {
    if (!actor.impersonator_id) throw badRequest('You are not impersonating anyone');
    await this.audit.record(actor.impersonator_id, actor.user_id, 'impersonation.stop', request.method, request.path);
    return { message: 'Impersonation ended' };
  }
}

import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { API, RPC, type Actor, type AdminUpdateUserRequest, type AdminUsersQuery, type AuditQuery, type PlatformSettings } from '@market/contracts';
import { badRequest } from '@market/server-kit';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { AuditTrail } from '../security/audit-trail';

/** /api/admin: users, stats, the audit log (ADR 0032) and recent emails; starting impersonation. Real admins only. */
@Controller()
export class AdminController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly audit: AuditTrail,
  ) {}

  @Route(API.admin.stats)
  stats(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.admin.stats, {}, actor);
  }

  @Route(API.admin.users)
  users(@CurrentActor() actor: Actor, @Query() query: AdminUsersQuery) {
    return this.rpc.call(RPC.admin.users, query, actor);
  }

  @Route(API.admin.updateUser)
  updateUser(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AdminUpdateUserRequest) {
    return this.rpc.call(RPC.auth.updateUser, { id, changes: body }, actor);
  }

  @Route(API.admin.deleteUser)
  deleteUser(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.rpc.call(RPC.auth.deleteUser, { id }, actor);
  }

  /** The start is recorded in the audit log before the token is handed out (D14). */
  @Route(API.admin.impersonate)
  async impersonate(@CurrentActor() actor: Actor, @Param('id') id: string, @Req() request: Request) {
    const result = await this.rpc.call(RPC.auth.impersonate, { id }, actor);
    await this.audit.record(actor.user_id, result.target_user.id, 'impersonation.start', request.method, request.path);
    return result;
  }

  @Route(API.admin.auditLog)
  auditLog(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.admin.auditLog, {}, actor);
  }

  @Route(API.admin.audit)
  auditPage(@CurrentActor() actor: Actor, @Query() query: AuditQuery) {
    return this.rpc.call(RPC.admin.audit, query, actor);
  }

  @Route(API.admin.settings)
  settings(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.admin.getSettings, {}, actor);
  }

  @Route(API.admin.saveSettings)
  saveSettings(@CurrentActor() actor: Actor, @Body() body: PlatformSettings) {
    return this.rpc.call(RPC.admin.updateSettings, body, actor);
  }

  @Route(API.admin.emails)
  emails(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.notifications.recentEmails, {}, actor);
  }
}

/** POST /api/admin/stop-impersonation: the one admin path an impersonation token may (and must) use. */
@Controller()
export class StopImpersonationController {
  constructor(
    private readonly audit: AuditTrail,
    private readonly rpc: GatewayRpc,
  ) {}

  @Route(API.admin.stopImpersonation)
  async stop(@CurrentActor() actor: Actor, @Req() request: Request) {
    if (!actor.impersonator_id) throw badRequest('You are not impersonating anyone');
    // The impersonation's own session ends first, so its token stops working at once (ADR 0030) even when the audit
    // trail is unavailable; the stop is then recorded (a 503 if it cannot be, with the session already over).
    await this.rpc.call(RPC.auth.logout, {}, actor);
    await this.audit.record(actor.impersonator_id, actor.user_id, 'impersonation.stop', request.method, request.path);
    return { message: 'Impersonation ended' };
  }
}

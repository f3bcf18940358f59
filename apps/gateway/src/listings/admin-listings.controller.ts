import { Body, Controller, Delete, Get, Param, Patch, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  AdminListingsQuerySchema,
  AdminUpdateListingSchema,
  RPC,
  UuidSchema,
  type Actor,
  type AdminListingDto,
  type AdminUpdateListing,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse, ZodBody } from '../http/zod-body';
import { AdminGuard, CurrentActor, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { ListingWrites } from './listing-writes';

/** /api/admin/listings: review, feature, set status and delete any listing. Real admins only. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard, AdminGuard)
@Controller('admin/listings')
export class AdminListingsController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly writes: ListingWrites,
  ) {}

  @Get()
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<{ listings: AdminListingDto[] }> {
    return this.rpc.send(RPC.listings.adminList, parse(AdminListingsQuerySchema, query, 'query'), actor);
  }

  @Patch(':id')
  @ZodBody(AdminUpdateListingSchema)
  async update(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AdminUpdateListing): Promise<AdminListingDto> {
    const listing = await this.rpc.send<AdminListingDto>(RPC.listings.adminUpdate, { id: parse(UuidSchema, id, 'path'), changes: body }, actor);
    await this.writes.settled();
    return listing;
  }

  @Delete(':id')
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    const result = await this.rpc.send<{ message: string; removed_screenshots: string[] }>(
      RPC.listings.delete,
      { id: parse(UuidSchema, id, 'path') },
      actor,
    );
    await this.writes.settled(result.removed_screenshots);
    return { message: result.message };
  }
}

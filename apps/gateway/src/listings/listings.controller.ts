import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  BrowseListingsQuerySchema,
  CreateListingSchema,
  ListingStatusRequestSchema,
  RPC,
  UpdateListingSchema,
  UuidSchema,
  type Actor,
  type BrowseListingsResponse,
  type ListingDto,
} from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse } from '../http/zod-body';
import { CurrentActor, JwtAuthGuard, OptionalActor, OptionalJwtAuthGuard } from '../auth/jwt-auth.guard';
import { ScreenshotsInterceptor, UploadedScreenshots, type StoredScreenshot } from '../uploads';
import { ListingWrites } from './listing-writes';
import { BrowseCache } from './browse-cache';

/** /api/listings: browse and view for everyone; create, edit and delete for sellers (and admins). */
@ApiTags('listings')
@Controller('listings')
export class ListingsController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly writes: ListingWrites,
    private readonly browseCache: BrowseCache,
  ) {}

  /** Public and the same for everyone (no reserve amounts), so pages are shared, serialized, through the browse cache. */
  @Get()
  @ApiOkResponse({ description: 'BrowseListingsResponse {listings, total, page, pages, limit}' })
  async browse(@Query() query: Record<string, unknown>, @Res() response: Response): Promise<void> {
    const parsed = parse(BrowseListingsQuerySchema, query, 'query');
    const body = await this.browseCache.get(parsed, async () =>
      JSON.stringify(await this.rpc.send<BrowseListingsResponse>(RPC.listings.browse, parsed, null)),
    );
    response.type('application/json').send(body);
  }

  @Get(':id')
  @UseGuards(OptionalJwtAuthGuard)
  get(@OptionalActor() actor: Actor | null, @Param('id') id: string): Promise<ListingDto> {
    return this.rpc.send(RPC.listings.get, { id: parse(UuidSchema, id, 'path') }, actor);
  }

  /** Multipart (SPEC §7): the fields plus up to 5 screenshots, checked and stored first (and removed if refused). */
  @Post()
  @ApiBearerAuth()
  @ApiConsumes('multipart/form-data')
  @UseGuards(JwtAuthGuard)
  @UseInterceptors(ScreenshotsInterceptor)
  async create(@CurrentActor() actor: Actor, @Body() body: unknown, @UploadedScreenshots() files: StoredScreenshot[]): Promise<ListingDto> {
    const listing = await this.rpc.send<ListingDto>(
      RPC.listings.create,
      { listing: parse(CreateListingSchema, body, 'body'), screenshots: files.map((f) => f.key) },
      actor,
    );
    await this.writes.settled();
    return listing;
  }

  /** Multipart: the whole edit form; JSON {status}: the owner's pause/activate. */
  @Patch(':id')
  @ApiBearerAuth()
  @ApiConsumes('multipart/form-data', 'application/json')
  @UseGuards(JwtAuthGuard)
  @UseInterceptors(ScreenshotsInterceptor)
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: unknown,
    @UploadedScreenshots() files: StoredScreenshot[],
    @Req() request: Request,
  ): Promise<ListingDto> {
    const listingId = parse(UuidSchema, id, 'path');
    if (!request.is('multipart/form-data')) {
      const { status } = parse(ListingStatusRequestSchema, body, 'body');
      const listing = await this.rpc.send<ListingDto>(RPC.listings.setStatus, { id: listingId, status }, actor);
      await this.writes.settled();
      return listing;
    }
    const change = await this.rpc.send<{ listing: ListingDto; removed_screenshots: string[] }>(
      RPC.listings.update,
      { id: listingId, listing: parse(UpdateListingSchema, body, 'body'), screenshots: files.map((f) => f.key) },
      actor,
    );
    await this.writes.settled(change.removed_screenshots);
    return change.listing;
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiBearerAuth()
  @UseGuards(JwtAuthGuard)
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

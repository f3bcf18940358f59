import { Body, Controller, Param, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { API, CreateListingSchema, ListingStatusRequestSchema, RPC, UpdateListingSchema, type Actor, type BrowseListingsQuery } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { parseRequest as parse } from '../http/parse-request';
import { Route } from '../http/route.decorator';
import { CurrentActor, OptionalActor } from '../auth/jwt-auth.guard';
import { ScreenshotsInterceptor, UploadedScreenshots, type StoredScreenshot } from '../uploads';
import { ListingWrites } from './listing-writes';
import { BrowseCache } from './browse-cache';
import { IdempotencyKey, type IdempotencyRequest } from '../http/idempotency-key.decorator';
import { requestFingerprint } from '@market/server-kit';

/** /api/listings: browse and view for everyone; create, edit and delete for sellers (and admins). */
@Controller()
export class ListingsController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly writes: ListingWrites,
    private readonly browseCache: BrowseCache,
  ) {}

  /** Public and the same for everyone (no reserve amounts), so pages are shared, serialized, through the browse cache. */
  @Route(API.listings.browse)
  async browse(@Query() query: BrowseListingsQuery, @Res() response: Response): Promise<void> {
    const body = await this.browseCache.get(query, async () => JSON.stringify(await this.rpc.call(RPC.listings.browse, query, null)));
    response.type('application/json').send(body);
  }

  @Route(API.listings.get)
  get(@OptionalActor() actor: Actor | null, @Param('id') id: string) {
    return this.rpc.call(RPC.listings.get, { id }, actor);
  }

  /** Multipart (SPEC §7): the fields plus up to 5 screenshots, checked and stored first (and removed if refused). */
  @Route(API.listings.create)
  @UseInterceptors(ScreenshotsInterceptor)
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: unknown,
    @UploadedScreenshots() files: StoredScreenshot[],
    @IdempotencyKey() key: IdempotencyRequest | null,
  ) {
    const listing = parse(CreateListingSchema, body, 'body');
    // A retry stores its screenshots under new keys: it must match on the fields and the images, not on storage keys.
    const shots = files.map((f) => [f.content_type, f.size, f.width, f.height]);
    const idempotency = key && { key: key.key, fingerprint: requestFingerprint({ listing, shots }) };
    const created = await this.rpc.call(RPC.listings.create, { listing, screenshots: files.map((f) => f.key) }, actor, { idempotency });
    await this.writes.settled();
    return created;
  }

  /** Multipart: the whole edit form; JSON {status}: the owner's pause/activate. */
  @Route(API.listings.update)
  @UseInterceptors(ScreenshotsInterceptor)
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: unknown,
    @UploadedScreenshots() files: StoredScreenshot[],
    @Req() request: Request,
  ) {
    if (!request.is('multipart/form-data')) {
      const { status } = parse(ListingStatusRequestSchema, body, 'body');
      const listing = await this.rpc.call(RPC.listings.setStatus, { id, status }, actor);
      await this.writes.settled();
      return listing;
    }
    const change = await this.rpc.call(
      RPC.listings.update,
      { id, listing: parse(UpdateListingSchema, body, 'body'), screenshots: files.map((f) => f.key) },
      actor,
    );
    await this.writes.settled(change.removed_screenshots);
    return change.listing;
  }

  @Route(API.listings.delete)
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const result = await this.rpc.call(RPC.listings.delete, { id }, actor);
    await this.writes.settled(result.removed_screenshots);
    return { message: result.message };
  }
}

import { Body, Controller, Param, Query } from '@nestjs/common';
import { API, RPC, type Actor, type CreateReview, type HideReview, type ReviewReply, type SellerPageQuery } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { Route } from '../http/route.decorator';
import { CurrentActor } from '../auth/jwt-auth.guard';
import { IdempotencyKey, type IdempotencyRequest } from '../http/idempotency-key.decorator';
import { PageRenderer } from '../site/page-renderer';

/** Reviews of completed sales and sellers' public pages (D23, ADR 0083); listings-service decides who may do what. */
@Controller()
export class ReviewsController {
  constructor(
    private readonly rpc: GatewayRpc,
    private readonly pages: PageRenderer,
  ) {}

  /** A review written, answered or hidden changes seller pages: this gateway's rendered copies go (ADR 0083). */
  private async changing<T>(write: Promise<T>): Promise<T> {
    const done = await write;
    this.pages.dropSellerPages();
    return done;
  }

  @Route(API.reviews.create)
  create(@CurrentActor() actor: Actor, @Body() body: CreateReview, @IdempotencyKey() idempotency: IdempotencyRequest | null) {
    return this.changing(this.rpc.call(RPC.listings.reviewCreate, body, actor, { idempotency }));
  }

  @Route(API.reviews.reply)
  reply(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() reply: ReviewReply) {
    return this.changing(this.rpc.call(RPC.listings.reviewReply, { id, reply }, actor));
  }

  @Route(API.reviews.mine)
  mine(@CurrentActor() actor: Actor) {
    return this.rpc.call(RPC.listings.reviewsMine, {}, actor);
  }

  @Route(API.reviews.hide)
  hide(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() hide: HideReview) {
    return this.changing(this.rpc.call(RPC.listings.reviewHide, { id, hide }, actor));
  }

  @Route(API.reviews.sellerPage)
  sellerPage(@Param('username') username: string, @Query() query: SellerPageQuery) {
    return this.rpc.call(RPC.listings.sellerPage, { username, page: query.page }, null);
  }
}

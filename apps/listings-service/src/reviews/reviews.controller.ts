import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, type RpcCall } from '@market/server-kit';
import { ReviewsService } from './reviews.service';
import { SellerPageService } from './seller-page.service';

/** NATS handlers of reviews and seller pages (D23, ADR 0083). */
@Controller()
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly sellers: SellerPageService,
  ) {}

  @RpcHandler(RPC.listings.reviewCreate)
  create(input: RpcParsed<typeof RPC.listings.reviewCreate>, call: RpcCall) {
    return this.reviews.create(call.actor, input);
  }

  @RpcHandler(RPC.listings.reviewReply)
  reply(input: RpcParsed<typeof RPC.listings.reviewReply>, call: RpcCall) {
    return this.reviews.reply(call.actor, input);
  }

  @RpcHandler(RPC.listings.reviewsMine)
  mine(_input: RpcParsed<typeof RPC.listings.reviewsMine>, call: RpcCall) {
    return this.reviews.mine(call.actor);
  }

  @RpcHandler(RPC.listings.reviewHide)
  hide(input: RpcParsed<typeof RPC.listings.reviewHide>, call: RpcCall) {
    return this.reviews.hide(call.actor, input);
  }

  @RpcHandler(RPC.listings.sellerPage)
  sellerPage(input: RpcParsed<typeof RPC.listings.sellerPage>) {
    return this.sellers.page(input.username, input.page);
  }
}

import { Injectable } from '@nestjs/common';
import { adminActed, type Actor, type CreateReview, type HideReview, type MySaleReviews, type ReviewDto, type ReviewReply } from '@market/contracts';
import { isReviewVisible, isReviewWindowOpen } from '@market/domain';
import { appendEvent, conflict, notFound, OutboxRelay, requireActor, requireAdmin } from '@market/server-kit';
import { SellerDirectory } from '../listings/seller-directory';
import { authorizeReply, authorizeReview, REVIEW_NOT_FOUND, visibilityOf } from './review.policy';
import { presentReview, reviewAuthors } from './review.presenter';
import { ReviewRepository, type ReviewRow } from './review.repository';

const day = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Reviews of completed sales (D23, ADR 0083): each party of a sale paid out reviews the other once within 60 days;
 * a review stays private until both have written or the window closes; the reviewed seller replies once; a real
 * admin hides one that breaks the rules, audited in the same transaction.
 */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly reviews: ReviewRepository,
    private readonly directory: SellerDirectory,
    private readonly relay: OutboxRelay,
  ) {}

  /** One party's review of the other, once, while the window is open. */
  async create(actor: Actor | null, input: CreateReview): Promise<ReviewDto> {
    const user = requireActor(actor);
    const { sale, role } = authorizeReview(user, await this.reviews.sale(input.invoice_id));
    const now = new Date();
    const closed = () => conflict(`Reviews of this sale closed on ${day(sale.reviews_close_at)}`);
    if (!isReviewWindowOpen(sale.reviews_close_at, now)) throw closed();
    const id = await this.reviews.insert({
      invoice_id: sale.invoice_id,
      author_id: user.user_id,
      subject_id: role === 'buyer' ? sale.seller_id : sale.buyer_id,
      author_role: role,
      stars: input.stars,
      body: input.text,
    }, now);
    if (!id) throw (await this.reviews.hasReviewed(sale.invoice_id, role)) ? conflict('You already reviewed this sale') : closed();
    return this.present((await this.reviews.review(id)) as ReviewRow);
  }

  /** The reviewed seller's one reply to a visible review. */
  async reply(actor: Actor | null, input: { id: string; reply: ReviewReply }): Promise<ReviewDto> {
    const user = requireActor(actor);
    const review = authorizeReply(user, await this.reviews.review(input.id), new Date());
    if (!(await this.reviews.reply(review.id, input.reply.text))) {
      const now = await this.reviews.review(review.id);
      throw now?.hidden_at ? notFound(REVIEW_NOT_FOUND) : conflict('You already replied to this review');
    }
    const id = input.id;
    return this.present((await this.reviews.review(id)) as ReviewRow);
  }

  /** The caller's completed sales with their own review and, once visible, the other party's. */
  async mine(actor: Actor | null): Promise<MySaleReviews> {
    const user = requireActor(actor);
    const now = new Date();
    const { sales, reviews } = await this.reviews.salesOf(user.user_id);
    const others = sales.map((sale) => (sale.buyer_id === user.user_id ? sale.seller_id : sale.buyer_id));
    const profiles = await this.directory.profiles([...others, ...reviewAuthors(reviews)]);
    return {
      sales: sales.map((sale, i) => {
        const role = sale.buyer_id === user.user_id ? 'buyer' : 'seller';
        const mine = reviews.find((r) => r.invoice_id === sale.invoice_id && r.author_role === role) ?? null;
        const theirs = reviews.find((r) => r.invoice_id === sale.invoice_id && r.author_role !== role) ?? null;
        const other = profiles.get(others[i]);
        return {
          invoice_id: sale.invoice_id,
          invoice_number: sale.invoice_number,
          website_title: sale.website_title,
          role,
          other_party: other ? { username: other.username, name: other.name } : { username: role === 'buyer' ? 'The seller' : 'The buyer', name: null },
          completed_at: sale.completed_at.toISOString(),
          closes_at: sale.reviews_close_at.toISOString(),
          can_review: mine === null && isReviewWindowOpen(sale.reviews_close_at, now),
          mine: mine && presentReview(mine, profiles),
          theirs: theirs && isReviewVisible(visibilityOf(theirs), now) ? presentReview(theirs, profiles) : null,
        };
      }),
    };
  }

  /** A real admin hides a review that breaks the rules; the reason goes to the audit log with it (ADR 0032). */
  async hide(actor: Actor | null, input: { id: string; hide: HideReview }): Promise<ReviewDto> {
    const admin = requireAdmin(actor);
    const { id } = input;
    const { reason } = input.hide;
    const hidden = await this.reviews.transaction(async (manager) => {
      const review = await this.reviews.review(id, manager);
      if (!review) throw notFound(REVIEW_NOT_FOUND);
      if (review.hidden_at) throw conflict('This review is hidden already');
      await this.reviews.hide(id, reason, manager);
      await appendEvent(
        manager,
        'admin.acted',
        adminActed(admin, {
          action: 'review.hidden',
          target_type: 'review',
          target_id: id,
          target_label: review.website_title,
          before: { hidden: false },
          after: { hidden: true, reason },
        }),
      );
      return review;
    });
    this.relay.kick();
    return this.present(hidden);
  }

  private async present(row: ReviewRow): Promise<ReviewDto> {
    return presentReview(row, await this.directory.profiles([row.author_id]));
  }
}

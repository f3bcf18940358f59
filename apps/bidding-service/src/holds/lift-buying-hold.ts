import { adminActed, type Actor, type BuyingHold } from '@market/contracts';
import { buyingHoldOf } from '@market/domain';
import { appendEvent, requireAdmin } from '@market/server-kit';
import type { BuyerStrikesRepository } from './buyer-strikes.repository';

/**
 * An admin lifts a member's buying hold (ADR 0043): every strike not yet lifted is marked lifted, audited by admin.acted
 * (ADR 0032) in the same transaction when anything was lifted; a member without a hold is answered as is. Says how the
 * member stands now, by the one rule of the hold (buyingHoldOf).
 */
export async function liftBuyingHold(strikes: BuyerStrikesRepository, actor: Actor | null, userId: string, now = new Date()): Promise<BuyingHold> {
  const admin = requireAdmin(actor);
  const lifted = await strikes.transaction(async (manager) => {
    const count = await strikes.liftStrikes(userId, admin.user_id, now, manager);
    if (count > 0) {
      const change = { before: { buying_on_hold: true, strikes: count }, after: { buying_on_hold: false, strikes: 0 } };
      await appendEvent(manager, 'admin.acted', adminActed(admin, { action: 'user.buying_hold_lifted', target_type: 'user', target_id: userId, target_label: null, ...change }));
    }
    return count;
  });
  const stands = buyingHoldOf(await strikes.recent(userId, now), now);
  return { user_id: userId, on_hold: stands.on_hold, strikes: stands.strikes, lifted };
}

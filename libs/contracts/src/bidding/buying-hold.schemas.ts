import { z } from 'zod';

/** A member's buying hold (ADR 0043): on hold after two unpaid purchases in 90 days until an admin lifts it. */
export const BuyingHoldSchema = z.strictObject({
  user_id: z.uuid(),
  on_hold: z.boolean(),
  /** Strikes (lapsed unpaid purchases) that still count: within 90 days and not lifted. */
  strikes: z.number().int().min(0),
  /** How many strikes this request lifted (0 when there were none). */
  lifted: z.number().int().min(0),
}).meta({ id: 'BuyingHold' });
export type BuyingHold = z.infer<typeof BuyingHoldSchema>;

/** GET /api/admin/buying-holds: the members whose buying is on hold now (at most 1000), for the admin Users tab. */
export const BuyingHoldsResponseSchema = z.strictObject({
  holds: z.array(z.strictObject({ user_id: z.uuid(), strikes: z.number().int().min(0), last_struck_at: z.iso.datetime({ offset: true }) })),
}).meta({ id: 'BuyingHoldsResponse' });
export type BuyingHoldsResponse = z.infer<typeof BuyingHoldsResponseSchema>;

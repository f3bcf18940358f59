import { sellingFeeText } from '@market/domain';
import { useFeesQuery } from './fees.api';

/** The sentence on what selling costs, with the success fee in force (ADR 0026); while unknown, only "Listing is free." */
export function useSellingFeeText(): string {
  const { data } = useFeesQuery();
  return sellingFeeText(data?.success_fee_percent);
}

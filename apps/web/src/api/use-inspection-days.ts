import { DEFAULT_INSPECTION_DAYS } from '@market/domain';
import { useFeesQuery } from './fees.api';

/** The inspection period in force (D22): days after the transfer is verified before the funds go out; 3 until known. */
export function useInspectionDays(): number {
  const { data } = useFeesQuery();
  return data?.inspection_days ?? DEFAULT_INSPECTION_DAYS;
}

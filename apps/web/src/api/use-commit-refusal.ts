import type { CommitAct } from '@market/domain';
import { useAppSelector } from '../lib/store-hooks';
import { useFeesQuery } from './fees.api';
import { commitRefusalFor } from '../lib/commit-refusal';

/** Why the signed-in member cannot do `act` yet (verify their email first), or null (ADR 0037). */
export function useCommitRefusal(act: CommitAct): string | null {
  const user = useAppSelector((state) => state.session.user);
  const { data } = useFeesQuery(undefined, { skip: !user || user.email_verified !== false });
  return commitRefusalFor(user, act, data);
}

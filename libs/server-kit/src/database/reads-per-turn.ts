import DataLoader from 'dataloader';

/**
 * Reads asked for in one turn of the event loop, answered by one call of `load` that starts after every one of them was
 * asked (ADR 0062): each sees all that had committed when it asked, as a read of its own would. Nothing is kept after
 * the call. `load` answers the keys in their order, duplicates included.
 */
export function readsPerTurn<K, V>(load: (keys: readonly K[]) => Promise<V[]>): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>((keys) => load(keys), { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch) });
  return (key) => loader.load(key);
}

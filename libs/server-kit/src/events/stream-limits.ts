import type { StreamConfig } from 'nats';

const COMPARED = ['duplicate_window', 'max_age', 'max_bytes', 'num_replicas', 'discard'] as const;

/** The limits of `wanted` that differ from the stream's current config, or null when none does. */
export function streamConfigChanges(current: StreamConfig, wanted: Partial<StreamConfig>): Partial<StreamConfig> | null {
  const changes: Partial<StreamConfig> = {};
  for (const key of COMPARED) {
    if (wanted[key] !== undefined && current[key] !== wanted[key]) Object.assign(changes, { [key]: wanted[key] });
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

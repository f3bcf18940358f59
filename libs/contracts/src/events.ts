/** Facts published on JetStream. Subject = `${prefix}.${name}`, message id = event id. */
export interface EventPayloads {
  'user.registered': {
    user_id: string;
    username: string;
    email: string;
    created_at: string;
  };
}
export type EventName = keyof EventPayloads;

export interface EventEnvelope<N extends EventName = EventName> {
  id: string;
  name: N;
  occurred_at: string;
  /** The request that caused the fact, so consumers' log lines can be joined to it. */
  request_id: string | null;
  payload: EventPayloads[N];
}

export const EVENT_NAMES: readonly EventName[] = ['user.registered'];

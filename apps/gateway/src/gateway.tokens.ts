/** Injection tokens of the gateway's own connections. */
export const GATEWAY_NATS = Symbol('GATEWAY_NATS');
export const GATEWAY_REDIS = Symbol('GATEWAY_REDIS');

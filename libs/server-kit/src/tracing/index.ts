// The entry main.ts imports before anything else (`@market/server-kit/tracing`): it must load nothing but the tracing
// starter, so http, pg and ioredis are still unloaded when the instrumentations hook them (ADR 0049).
export * from './start-tracing';

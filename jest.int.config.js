/**
 * Integration and API tests (*.int-spec.ts) against PostgreSQL, Redis, NATS and S3: containers when a Docker engine
 * answers, else the machine's services; TEST_INFRA=containers|env|auto decides (ADR 0054).
 */
module.exports = {
  ...require('./jest.preset'),
  displayName: 'integration',
  testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.int-spec.ts'],
  // The fault tests (Redis paused under load, PostgreSQL held by a lock) assert answers within wall-clock bounds: they
  // run after the others, one at a time, with the machine to themselves (jest.int-alone.config.js, ADR 0061).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/system-tests/src/faults/'],
  globalSetup: '<rootDir>/scripts/lib/test-infra.global-setup.mjs',
  globalTeardown: '<rootDir>/scripts/lib/test-infra.global-teardown.mjs',
  testTimeout: 60_000,
  // Two suites at once (ADR 0061): each has its own database, stream names, Redis prefix and servers, and the tier
  // waits on its services as much as it computes, so two workers take it from about 11 minutes to about 6 on 2 cores.
  maxWorkers: 2,
};

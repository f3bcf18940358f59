/** Integration and API tests against the machine's PostgreSQL, Redis and NATS (*.int-spec.ts). */
module.exports = {
  ...require('./jest.preset'),
  displayName: 'integration',
  testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.int-spec.ts'],
  testTimeout: 60_000,
};

/** Browser journeys: the whole system started as processes, driven through Debian's Chromium. */
module.exports = {
  ...require('./jest.preset'),
  displayName: 'e2e',
  testMatch: ['<rootDir>/apps/e2e/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/apps/e2e/src/support/global-setup.mjs',
  globalTeardown: '<rootDir>/apps/e2e/src/support/global-teardown.mjs',
  testTimeout: 90_000,
};

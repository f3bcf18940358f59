/**
 * The integration tests that need the machine to themselves (ADR 0061): fault tests bounding answers in wall-clock
 * time, which a suite running beside them could push past their bounds. `npm test` runs them after the others, in band.
 */
const shared = require('./jest.int.config.js');

module.exports = {
  ...shared,
  displayName: 'integration (alone)',
  testMatch: ['<rootDir>/apps/system-tests/src/faults/**/*.int-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};

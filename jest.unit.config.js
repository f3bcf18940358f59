/** Unit tests: pure code, beside it as *.spec.ts(x). */
module.exports = {
  ...require('./jest.preset'),
  displayName: 'unit',
  testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.spec.{ts,tsx}', '<rootDir>/scripts/**/*.spec.ts'],
};

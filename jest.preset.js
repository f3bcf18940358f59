// Shared Jest settings: SWC compiles TypeScript (with Nest's decorator metadata) and the libs resolve to their sources.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.m?(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true, tsx: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@market/([a-z-]+)/testing$': '<rootDir>/libs/$1/src/testing',
    '^@market/([a-z-]+)$': '<rootDir>/libs/$1/src',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/apps/.*/dist/', '<rootDir>/libs/.*/dist/'],
};

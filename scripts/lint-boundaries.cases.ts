// The planted imports of scripts/lint-boundaries.spec.ts (ADR 0027, ADR 0067): each forbidden one with the rule and
// message it must fail with, and the allowed ones that must lint clean.

import { folderForbidden, importing, type Case, type ForbiddenCase } from './lint-boundaries.folder-cases';

export type { Case } from './lint-boundaries.folder-cases';

const PROJECT = 'architecture/project-imports';

export const forbidden: ForbiddenCase[] = [
  [
    'a service importing another service',
    { filePath: 'apps/bidding-service/src/auctions/x.ts', code: importing('../../../billing-service/src/invoices/invoices.repository') },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    'a service reaching another service through the repository root',
    { filePath: 'apps/bidding-service/src/a/b.ts', code: importing('../../../../apps/billing-service/src/z') },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    'a service test file (int-spec) importing another service',
    { filePath: 'apps/notifications-service/src/x.int-spec.ts', code: importing('../../auth-service/src/app.module') },
    PROJECT,
    'project',
    'resolves into apps/auth-service',
  ],
  [
    'a service testing/ helper loading another service through jest.requireActual',
    { filePath: 'apps/listings-service/src/testing/x.ts', code: "export const thing = jest.requireActual('../../../admin-service/src/app.module');\n" },
    PROJECT,
    'project',
    'resolves into apps/admin-service',
  ],
  [
    'the gateway importing a service',
    { filePath: 'apps/gateway/src/bids/x.ts', code: importing('../../../bidding-service/src/auctions/close-jobs') },
    PROJECT,
    'project',
    'resolves into apps/bidding-service',
  ],
  [
    'the gateway importing a service by its package name',
    { filePath: 'apps/gateway/src/x.ts', code: importing('@market/bidding-service') },
    PROJECT,
    'project',
    'resolves into apps/bidding-service',
  ],
  [
    'domain importing contracts',
    { filePath: 'libs/domain/src/bidding/x.ts', code: importing('@market/contracts') },
    PROJECT,
    'project',
    'resolves into libs/contracts',
  ],
  [
    'domain importing a relative path that leaves it',
    { filePath: 'libs/domain/src/x.ts', code: importing('../../contracts/src/index') },
    PROJECT,
    'project',
    'resolves into libs/contracts',
  ],
  [
    'domain importing a node built-in',
    { filePath: 'libs/domain/src/x.ts', code: importing('node:crypto') },
    PROJECT,
    'package',
    "the package 'node:crypto'",
  ],
  [
    'domain source importing the property-test library (only its specs may)',
    { filePath: 'libs/domain/src/x.ts', code: importing('fast-check') },
    PROJECT,
    'package',
    "the package 'fast-check'",
  ],
  [
    'contracts importing server-kit',
    { filePath: 'libs/contracts/src/x.ts', code: importing('@market/server-kit') },
    PROJECT,
    'project',
    'resolves into libs/server-kit',
  ],
  [
    'contracts importing an npm package it does not use',
    { filePath: 'libs/contracts/src/x.ts', code: importing('typeorm') },
    PROJECT,
    'package',
    "the package 'typeorm'",
  ],
  [
    'web importing @market/server-kit',
    { filePath: 'apps/web/src/lib/x.ts', code: importing('@market/server-kit') },
    PROJECT,
    'project',
    'resolves into libs/server-kit',
  ],
  [
    'web importing the gateway',
    { filePath: 'apps/web/src/lib/x.ts', code: importing('../../../gateway/src/main') },
    PROJECT,
    'project',
    'resolves into apps/gateway',
  ],
  [
    'e2e importing an app source',
    { filePath: 'apps/e2e/src/x.e2e-spec.ts', code: importing('../../web/src/lib/money') },
    PROJECT,
    'project',
    'resolves into apps/web',
  ],
  // Every form that names a module is judged, not only `import … from`.
  [
    'the gateway loading a service with require()',
    {
      filePath: 'apps/gateway/src/x.ts',
      code: "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const thing = require('../../billing-service/src/app.module');\n",
    },
    PROJECT,
    'project',
    "may not import '../../billing-service/src/app.module': it resolves into apps/billing-service",
  ],
  [
    'the gateway re-exporting from a service (export { x } from)',
    { filePath: 'apps/gateway/src/x.ts', code: "export { thing } from '../../billing-service/src/x';\n" },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    'contracts re-exporting server-kit (export * from)',
    { filePath: 'libs/contracts/src/x.ts', code: "export * from '@market/server-kit';\n" },
    PROJECT,
    'project',
    'resolves into libs/server-kit',
  ],
  [
    'domain importing a contracts type (import type)',
    { filePath: 'libs/domain/src/x.ts', code: "import type { Thing } from '@market/contracts';\n\nexport type Used = Thing;\n" },
    PROJECT,
    'project',
    'resolves into libs/contracts',
  ],
  [
    "the gateway importing a service with TypeScript's import x = require()",
    {
      filePath: 'apps/gateway/src/x.ts',
      code: "// eslint-disable-next-line @typescript-eslint/no-require-imports\nimport thing = require('../../billing-service/src/x');\n\nexport const used = thing;\n",
    },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    "web naming a gateway type through an import('…') type",
    { filePath: 'apps/web/src/lib/x.ts', code: "export type T = import('../../../gateway/src/main').X;\n" },
    PROJECT,
    'project',
    'resolves into apps/gateway',
  ],
  [
    'a gateway spec mocking a service module (jest.mock)',
    { filePath: 'apps/gateway/src/x.spec.ts', code: "jest.mock('../../billing-service/src/x');\n" },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    'the gateway resolving a service file with require.resolve()',
    { filePath: 'apps/gateway/src/x.ts', code: "export const thing = require.resolve('../../billing-service/src/app.module');\n" },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    'the gateway loading a service through createRequire(__filename)()',
    {
      filePath: 'apps/gateway/src/x.ts',
      code: "import { createRequire } from 'node:module';\n\nexport const thing = createRequire(__filename)('../../billing-service/src/x');\n",
    },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    'web loading the gateway through createRequire(import.meta.url)()',
    {
      filePath: 'apps/web/src/lib/x.ts',
      code: "import { createRequire } from 'node:module';\n\nexport const thing = createRequire(import.meta.url)('../../../gateway/src/main');\n",
    },
    PROJECT,
    'project',
    'resolves into apps/gateway',
  ],
  [
    'the gateway resolving a service file through a const bound to createRequire() (renamed on import) and its .resolve()',
    {
      filePath: 'apps/gateway/src/x.ts',
      code: "import { createRequire as makeRequire } from 'module';\n\nconst load = makeRequire(__filename);\nexport const thing = load.resolve('../../billing-service/src/x');\n",
    },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  [
    'web resolving the gateway with import.meta.resolve()',
    { filePath: 'apps/web/src/lib/x.ts', code: "export const thing = import.meta.resolve('../../../gateway/src/main');\n" },
    PROJECT,
    'project',
    'resolves into apps/gateway',
  ],
  [
    'the gateway importing a service through a template literal without expressions',
    { filePath: 'apps/gateway/src/x.ts', code: 'export const thing = () => import(`../../billing-service/src/x`);\n' },
    PROJECT,
    'project',
    'resolves into apps/billing-service',
  ],
  // A specifier no one can resolve without running the code is refused, whatever it would resolve to.
  [
    'the gateway importing through a template literal with an expression',
    { filePath: 'apps/gateway/src/x.ts', code: 'export const thing = (n: string) => import(`../../billing-service/src/${n}`);\n' },
    PROJECT,
    'dynamicSpecifier',
    'Import paths must be literal strings so the architecture can be checked',
  ],
  [
    'a lib importing a variable with import()',
    { filePath: 'libs/server-kit/src/x.ts', code: 'export const thing = (name: string) => import(name);\n' },
    PROJECT,
    'dynamicSpecifier',
    'must be literal strings',
  ],
  [
    'a gateway spec requiring a variable',
    {
      filePath: 'apps/gateway/src/x.spec.ts',
      code: '// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const thing = (name: string) => require(name);\n',
    },
    PROJECT,
    'dynamicSpecifier',
    'must be literal strings',
  ],
  [
    'a service resolving a template with an expression through require.resolve()',
    { filePath: 'apps/billing-service/src/x.ts', code: 'export const thing = (n: string) => require.resolve(`./${n}`);\n' },
    PROJECT,
    'dynamicSpecifier',
    'must be literal strings',
  ],
  [
    'an e2e support .mjs calling a createRequire() result with a variable',
    {
      filePath: 'apps/e2e/src/support/x.mjs',
      code: "import { createRequire } from 'node:module';\n\nconst load = createRequire(import.meta.url);\nexport const thing = (name) => load(name);\n",
    },
    PROJECT,
    'dynamicSpecifier',
    'must be literal strings',
  ],
  [
    'web resolving a variable with import.meta.resolve()',
    { filePath: 'apps/web/src/lib/x.ts', code: 'export const thing = (name: string) => import.meta.resolve(name);\n' },
    PROJECT,
    'dynamicSpecifier',
    'must be literal strings',
  ],
  [
    'a domain spec mocking a variable (jest.mock)',
    { filePath: 'libs/domain/src/x.spec.ts', code: "const name = './x';\njest.mock(name);\n" },
    PROJECT,
    'dynamicSpecifier',
    'must be literal strings',
  ],
  [
    'a feature importing a feature through a template with an expression (reported once, as dynamic)',
    { filePath: 'apps/web/src/features/sell/x.ts', code: 'export const thing = (n: string) => import(`../browse/${n}`);\n' },
    PROJECT,
    'dynamicSpecifier',
    'must be literal strings',
  ],
  ...folderForbidden,
];

export const allowed: Array<[title: string, plant: Case]> = [
  ['a web component importing lib', { filePath: 'apps/web/src/components/listing/X.tsx', code: importing('../../lib/money') }],
  ['a web API slice importing lib', { filePath: 'apps/web/src/api/x.ts', code: importing('../lib/api') }],
  ['the web app importing a feature', { filePath: 'apps/web/src/app/router-x.tsx', code: importing('../features/sell/SellPage') }],
  ['a service importing @market/server-kit', { filePath: 'apps/bidding-service/src/x.ts', code: importing('@market/server-kit') }],
  ['a service importing its own files', { filePath: 'apps/bidding-service/src/bids/x.ts', code: importing('../auctions/auctions.repository') }],
  ['a bidding repository importing one of its own sub-domain', { filePath: 'apps/bidding-service/src/sales/x.repository.ts', code: importing('./standing-bids.repository') }],
  ['a bidding use case asking repositories of two sub-domains', { filePath: 'apps/bidding-service/src/bids/bids.service.ts', code: importing('../sales/sales.repository') }],
  ['a bidding repository importing a rule of another sub-domain', { filePath: 'apps/bidding-service/src/bids/x.repository.ts', code: importing('../holds/buying-hold.sql') }],
  ['a feature importing components/', { filePath: 'apps/web/src/features/sell/x.tsx', code: importing('../../components/form/TextField') }],
  ['a feature importing its own sibling file', { filePath: 'apps/web/src/features/sell/steps/x.tsx', code: importing('../sell-steps') }],
  ['apps/system-tests importing a service source', { filePath: 'apps/system-tests/src/x.int-spec.ts', code: importing('../../billing-service/src/app.module') }],
  ['apps/e2e importing scripts/lib', { filePath: 'apps/e2e/src/x.e2e-spec.ts', code: importing('../../../scripts/lib/system.mjs') }],
  ['contracts importing @market/domain and zod', { filePath: 'libs/contracts/src/x.ts', code: `${importing('@market/domain')}export { z } from 'zod';\n` }],
  ['a domain spec importing fast-check', { filePath: 'libs/domain/src/x.spec.ts', code: importing('fast-check') }],
  [
    'a service resolving a file of an npm package with require.resolve()',
    { filePath: 'apps/billing-service/src/x.ts', code: "export const thing = require.resolve('pdfmake/package.json');\n" },
  ],
  [
    'a lazy web route importing a feature with a literal import()',
    { filePath: 'apps/web/src/app/x.tsx', code: "export const lazy = () => import('../features/browse/BrowsePage');\n" },
  ],
  [
    'own files through createRequire(), import.meta.resolve() and a template without expressions',
    {
      filePath: 'apps/gateway/src/x.ts',
      code:
        "import { createRequire } from 'node:module';\n\n" +
        "export const a = createRequire(__filename)('./y');\n" +
        "export const b = import.meta.resolve('./y');\n" +
        'export const c = () => import(`./y`);\n',
    },
  ],
  [
    'a spec mocking its own file with jest.requireActual<typeof import()>',
    {
      filePath: 'apps/gateway/src/uploads/x.spec.ts',
      code: "jest.mock('./y', () => jest.requireActual<typeof import('./y')>('./y'));\n",
    },
  ],
  [
    'a call of a locally declared function named require',
    { filePath: 'apps/gateway/src/x.ts', code: 'export const thing = (require: (id: string) => unknown, id: string) => require(id);\n' },
  ],
];

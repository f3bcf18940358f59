// The planted imports of the folder rules (feature-imports and web-layers in web, ADR 0027 and 0067; sub-domains in
// bidding-service, ADR 0070), and the helpers every case file of scripts/lint-boundaries.spec.ts plants with.

/** Code linted at a virtual path. */
export interface Case {
  filePath: string;
  code: string;
}

/** A forbidden import: its title, where it is planted, and the rule, message id and text it must fail with. */
export type ForbiddenCase = [title: string, plant: Case, ruleId: string, messageId: string, says: string];

/** Code that imports `specifier` and uses what it imports, so no other rule has anything to say. */
export const importing = (specifier: string) => `import { thing } from '${specifier}';\n\nexport const used = thing;\n`;

const FEATURE = 'architecture/feature-imports';
const LAYERS = 'architecture/web-layers';
const SUB_DOMAINS = 'architecture/sub-domains';

export const folderForbidden: ForbiddenCase[] = [
  [
    'a web component importing a feature',
    { filePath: 'apps/web/src/components/listing/X.tsx', code: importing('../../features/browse/browse-params') },
    FEATURE,
    'sharedImportsFeature',
    "from feature 'browse'",
  ],
  [
    'a web api module importing a feature by a dynamic import()',
    { filePath: 'apps/web/src/api/x.ts', code: "export const thing = () => import('../features/sell/SellPage');\n" },
    FEATURE,
    'sharedImportsFeature',
    "from feature 'sell'",
  ],
  [
    'a feature importing another feature',
    { filePath: 'apps/web/src/features/admin/X.tsx', code: importing('../invoices/invoices') },
    FEATURE,
    'otherFeature',
    "Feature 'admin' may not import '../invoices/invoices' from feature 'invoices'",
  ],
  [
    'a feature reaching another feature from a nested folder',
    { filePath: 'apps/web/src/features/sell/steps/x.tsx', code: importing('../../browse/y') },
    FEATURE,
    'otherFeature',
    "Feature 'sell' may not import '../../browse/y' from feature 'browse'",
  ],
  [
    'a feature spec mocking another feature',
    { filePath: 'apps/web/src/features/invoices/x.spec.ts', code: "jest.mock('../payments/y.css', () => ({}));\n" },
    FEATURE,
    'otherFeature',
    "from feature 'payments'",
  ],
  [
    'web lib importing the app store (an upward import)',
    { filePath: 'apps/web/src/lib/x.ts', code: importing('../app/store') },
    LAYERS,
    'upward',
    "lib/ may not import '../app/store' from app/",
  ],
  [
    'a web component importing an API slice',
    { filePath: 'apps/web/src/components/listing/X.tsx', code: importing('../../api/listings.api') },
    LAYERS,
    'upward',
    "components/ may not import '../../api/listings.api' from api/",
  ],
  [
    'a web feature importing the app layout',
    { filePath: 'apps/web/src/features/sell/X.tsx', code: importing('../../app/layout/Header') },
    LAYERS,
    'upward',
    "features/ may not import '../../app/layout/Header' from app/",
  ],
  [
    'web lib importing a component',
    { filePath: 'apps/web/src/lib/x.ts', code: importing('../components/form/TextField') },
    LAYERS,
    'upward',
    'from components/',
  ],
  [
    'a bidding repository importing the repository of another sub-domain',
    { filePath: 'apps/bidding-service/src/bids/x.repository.ts', code: importing('../sales/sales.repository') },
    SUB_DOMAINS,
    'repository',
    "a repository of 'sales'",
  ],
  [
    "bidding's shared core importing a sub-domain",
    { filePath: 'apps/bidding-service/src/auctions/x.ts', code: importing('../bids/place-bids') },
    SUB_DOMAINS,
    'core',
    "from sub-domain 'bids'",
  ],
];

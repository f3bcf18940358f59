import { patternRegex, whereProblems } from './where-things-live.mjs';

const FILES = ['libs/domain/src/bidding/bid.rules.ts', 'apps/web/src/features/sell/SellPage.tsx'];
const read = (path: string) => (path === 'libs/domain/src/bidding/bid.rules.ts' ? 'export function decideBid() {}' : '');
const doc = (rows: string[]) => `# A\n\n## Where things live\n\n| to find | it lives in | for example |\n| --- | --- | --- |\n${rows.join('\n')}\n\n## Next\n`;

describe('the "Where things live" table', () => {
  it('reads a placeholder as one path segment', () => {
    expect(patternRegex('libs/domain/src/<area>/<name>.rules.ts').test('libs/domain/src/bidding/bid.rules.ts')).toBe(true);
    expect(patternRegex('libs/domain/src/<area>/<name>.rules.ts').test('libs/domain/src/a/b/bid.rules.ts')).toBe(false);
    expect(patternRegex('apps/web/src/features/<feature>/').test('apps/web/src/features/sell/SellPage.tsx')).toBe(true);
  });

  it('holds when every pattern matches a file and every example is in its file', () => {
    expect(whereProblems(doc(['| a rule | `libs/domain/src/<area>/<name>.rules.ts` | `decideBid` in `libs/domain/src/bidding/bid.rules.ts` |']), FILES, read)).toEqual([]);
  });

  it('names a pattern nothing matches, an example moved away, a symbol gone, and a missing section', () => {
    const problems = whereProblems(
      doc([
        '| a policy | `apps/<service>/src/<area>/<area>.policy.ts` | `canBid` in `apps/bidding-service/src/bids/bids.policy.ts` |',
        '| a rule | `libs/domain/src/<area>/<name>.rules.ts` | `decideOffer` in `libs/domain/src/bidding/bid.rules.ts` |',
      ]),
      FILES,
      read,
    );
    expect(problems).toEqual([
      '"Where things live": no file matches apps/<service>/src/<area>/<area>.policy.ts ("a policy")',
      '"Where things live": apps/bidding-service/src/bids/bids.policy.ts does not exist ("a policy")',
      '"Where things live": decideOffer is not in libs/domain/src/bidding/bid.rules.ts ("a rule")',
    ]);
    expect(whereProblems('# nothing here\n', FILES, read)).toEqual(['docs/architecture.md has no "## Where things live" section']);
  });
});

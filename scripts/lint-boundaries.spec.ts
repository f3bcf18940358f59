import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { allowed, forbidden } from './lint-boundaries.cases';

/*
 * The architecture boundaries of ADR 0027 as the repository's own ESLint config applies them: planted code is linted
 * at virtual paths with the ESLint Node API, and each forbidden import must fail with the rule and message meant for
 * it, each allowed one must lint clean.
 *
 * ESLint loads eslint.config.mjs with a dynamic import(), which Jest's module sandbox refuses without
 * --experimental-vm-modules, so the ESLint API runs in a plain Node child process, once for every case.
 */

const ROOT = path.resolve(__dirname, '..');

interface Message {
  ruleId: string | null;
  messageId?: string;
  message: string;
  fatal?: boolean;
}

const LINT_CASES = `
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
const cases = JSON.parse(readFileSync(0, 'utf8'));
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { code, filePath } of cases) {
  const [result] = await eslint.lintText(code, { filePath });
  out.push(result.messages.map(({ ruleId, messageId, message, fatal }) => ({ ruleId, messageId, message, fatal })));
}
process.stdout.write(JSON.stringify(out));
`;

let results: Message[][];

beforeAll(() => {
  const cases = [...forbidden.map(([, plant]) => plant), ...allowed.map(([, plant]) => plant)];
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', LINT_CASES], {
    cwd: ROOT,
    input: JSON.stringify(cases),
    encoding: 'utf8',
    // A hung ESLint is killed (and beforeAll fails with ETIMEDOUT) rather than stalling the unit tier.
    timeout: 120_000,
  });
  results = JSON.parse(stdout) as Message[][];
}, 150_000);

describe('lint fails on a boundary crossing', () => {
  test.each(forbidden.map((row, index) => [...row, index] as const))('%s', (_title, _plant, ruleId, messageId, says, index) => {
    const messages = results[index];
    expect(messages.filter((m) => m.fatal)).toEqual([]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ ruleId, messageId });
    expect(messages[0].message).toContain(says);
  });
});

describe('lint passes an allowed import', () => {
  test.each(allowed.map((row, index) => [...row, forbidden.length + index] as const))('%s', (_title, _plant, index) => {
    expect(results[index]).toEqual([]);
  });
});

// The "Where things live" table of docs/architecture.md, kept true by scripts/check-docs.mjs: every path pattern of its
// second column matches a file, and every example of its third ("`symbol` in `path`") is found in that file.

const SECTION = /^## Where things live\n([\s\S]*?)(?=\n## )/m;

/** A path pattern of the table as a regular expression: `<word>` is one path segment's part, a trailing `/` a folder. */
export function patternRegex(pattern) {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z-]+>/gi, '[^/]+');
  return new RegExp(`^${escaped}${pattern.endsWith('/') ? '' : '$'}`);
}

/** Why the table is not true of `files` (repository-relative paths) as `read` reads them; [] when it is. */
export function whereProblems(markdown, files, read) {
  const section = SECTION.exec(markdown);
  if (!section) return ['docs/architecture.md has no "## Where things live" section'];
  const rows = section[1].split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !line.startsWith('| to find'));
  if (rows.length === 0) return ['"Where things live" has no rows'];
  const problems = [];
  for (const row of rows) {
    const [what, where = '', example = ''] = row.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, '').trim());
    const patterns = [...where.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    if (patterns.length === 0) problems.push(`"Where things live": "${what}" names no path`);
    for (const pattern of patterns) {
      const regex = patternRegex(pattern);
      if (!files.some((file) => regex.test(file))) problems.push(`"Where things live": no file matches ${pattern} ("${what}")`);
    }
    const examples = [...example.matchAll(/`([^`]+)` in `([^`]+)`/g)];
    if (examples.length === 0) problems.push(`"Where things live": "${what}" gives no example (\`symbol\` in \`path\`)`);
    for (const [, symbol, path] of examples) {
      if (!files.includes(path)) problems.push(`"Where things live": ${path} does not exist ("${what}")`);
      else if (!read(path).includes(symbol)) problems.push(`"Where things live": ${symbol} is not in ${path} ("${what}")`);
    }
  }
  return problems;
}

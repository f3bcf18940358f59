import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './system.mjs';

/** Files under a folder (relative to the repository, or absolute), recursively, whose names match; build output and dependencies skipped. */
export function filesUnder(dir, pattern) {
  const found = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (['node_modules', 'dist', '.nx', 'tmp', 'data'].includes(entry.name)) continue;
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (pattern.test(entry.name)) found.push(full);
    }
  };
  walk(resolve(ROOT, dir));
  return found;
}

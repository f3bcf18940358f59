/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type BuildManifest = Record<string, ManifestChunk>;

/** The scripts and styles a chunk needs, itself and every chunk it imports statically, in load order. */
function closure(manifest: BuildManifest, key: string, seen: Set<string>, out: { scripts: string[]; styles: string[] }): void {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen, out);
  out.scripts.push(chunk.file);
  out.styles.push(...(chunk.css ?? []));
}

/**
 * The link tags a server-rendered page adds for its lazy page modules (ADR 0072): their styles, so the HTML shows
 * styled before any script runs, and their scripts preloaded, so hydration does not wait for a second round trip.
 * What the entry (index.html) already loads is left out.
 */
export function pageAssetLinks(manifest: BuildManifest, sources: string[]): string {
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const loaded = { scripts: [] as string[], styles: [] as string[] };
  const seen = new Set<string>();
  if (entry) closure(manifest, entry, seen, loaded);
  const page = { scripts: [] as string[], styles: [] as string[] };
  for (const source of sources) closure(manifest, source, seen, page);
  const unique = (files: string[]) => [...new Set(files)].filter((file) => !loaded.styles.includes(file));
  return [
    ...unique(page.styles).map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...unique(page.scripts).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ].join('\n    ');
}

/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type BuildManifest = Record<string, ManifestChunk>;

/**
 * The module the entry imports once the server's HTML is painted (main.tsx): index.html preloads its scripts and links
 * its styles (build/boot-preload.plugin.ts), so every page has them from the start (ADR 0072, amended).
 */
export const BOOT_MODULE = 'src/app/start.tsx';

/** The scripts and styles a chunk needs, itself and every chunk it imports statically, in load order. */
function closure(manifest: BuildManifest, key: string, seen: Set<string>, out: { scripts: string[]; styles: string[] }): void {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen, out);
  out.scripts.push(chunk.file);
  out.styles.push(...(chunk.css ?? []));
}

/** A stylesheet's text to put in the page, or null to link it instead (unreadable, or text that could close the tag). */
export type StyleText = (file: string) => string | null;

/**
 * A stylesheet inlined as the page's own style element, where its text can be, else linked. An inlined one keeps a
 * disabled link (never fetched) so Vite's loader, which looks for links, does not fetch it again when the page's module
 * is imported.
 */
function styleTag(file: string, styleText: StyleText): string {
  const text = styleText(file);
  return text !== null && !/<\/style/i.test(text)
    ? `<style data-href="/${file}">${text}</style><link rel="stylesheet" crossorigin href="/${file}" disabled>`
    : `<link rel="stylesheet" crossorigin href="/${file}">`;
}

/** What a server-rendered page adds for its lazy page modules: style elements for the head, and scripts to load. */
export interface PageAssets {
  styles: string;
  scripts: string[];
}

/**
 * What a server-rendered page adds for its lazy page modules (ADR 0072): their styles inlined, so the HTML shows styled
 * without a round trip for each stylesheet, and their scripts named, so the entry loads them with the app's once the
 * page is painted. What index.html already has (the entry and the boot module) is left out.
 */
export function pageAssets(manifest: BuildManifest, sources: string[], styleText: StyleText): PageAssets {
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const loaded = { scripts: [] as string[], styles: [] as string[] };
  const seen = new Set<string>();
  if (entry) closure(manifest, entry, seen, loaded);
  closure(manifest, BOOT_MODULE, seen, loaded);
  const page = { scripts: [] as string[], styles: [] as string[] };
  for (const source of sources) closure(manifest, source, seen, page);
  const styles = [...new Set(page.styles)].filter((file) => !loaded.styles.includes(file));
  return { styles: styles.map((file) => styleTag(file, styleText)).join('\n    '), scripts: [...new Set(page.scripts)].map((file) => `/${file}`) };
}

const TEMPLATE_STYLESHEET = /<link rel="stylesheet"[^>]*?href="\/([^"]+\.css)"[^>]*>/g;
const TEMPLATE_MODULEPRELOAD = /\s*<link rel="modulepreload"[^>]*?href="(\/[^"]+\.js)"[^>]*>/g;

/**
 * index.html made into the template of server-rendered pages: its stylesheets (the entry's and the boot module's)
 * inlined where they can be, and its module preloads taken out and returned, for the page to name with its own.
 */
export function serverTemplate(html: string, styleText: StyleText): { template: string; scripts: string[] } {
  const scripts: string[] = [];
  const template = html
    .replace(TEMPLATE_MODULEPRELOAD, (_tag: string, file: string) => {
      scripts.push(file);
      return '';
    })
    .replace(TEMPLATE_STYLESHEET, (_tag: string, file: string) => styleTag(file, styleText));
  return { template, scripts };
}

import type { HtmlTagDescriptor, Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** The chunk files `start` imports statically, itself included, and the styles they import, in load order. */
function closureOf(bundle: OutputBundle, start: OutputChunk): { scripts: string[]; styles: string[] } {
  const out = { scripts: [] as string[], styles: [] as string[] };
  const seen = new Set<string>();
  const visit = (chunk: OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const file of chunk.imports) {
      const imported = bundle[file];
      if (imported?.type === 'chunk') visit(imported);
    }
    out.scripts.push(chunk.fileName);
    out.styles.push(...(chunk.viteMetadata?.importedCss ?? []));
  };
  visit(start);
  return out;
}

/**
 * The entry (main.tsx) imports the app's boot module only after the page is painted (ADR 0072, amended); this puts the
 * boot module's styles and preloaded scripts into index.html, so they load with the page as a static import would,
 * and nothing arrives unstyled.
 */
export function bootPreload(bootModule: string): Plugin {
  return {
    name: 'market-boot-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle || !ctx.chunk) return [];
        const boot = Object.values(bundle).find((item): item is OutputChunk => item.type === 'chunk' && item.facadeModuleId?.endsWith(`/${bootModule}`) === true);
        if (!boot) throw new Error(`bootPreload: no chunk for ${bootModule} in the build`);
        const already = closureOf(bundle, ctx.chunk);
        const needed = closureOf(bundle, boot);
        const tags: HtmlTagDescriptor[] = [
          ...needed.styles.filter((file) => !already.styles.includes(file)).map((file) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const })),
          ...needed.scripts.filter((file) => !already.scripts.includes(file)).map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const })),
        ];
        return tags;
      },
    },
  };
}

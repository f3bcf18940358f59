import { BOOT_MODULE, pageAssets, serverTemplate, type BuildManifest } from './page-assets';

const manifest: BuildManifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_api-1.js'], css: ['assets/index-1.css'] },
  [BOOT_MODULE]: { file: 'assets/start-1.js', imports: ['_api-1.js', '_router-1.js'], css: ['assets/start-1.css'] },
  '_api-1.js': { file: 'assets/api-1.js', css: ['assets/shared-1.css'] },
  '_router-1.js': { file: 'assets/router-1.js' },
  '_badge-1.js': { file: 'assets/badge-1.js', imports: ['_api-1.js', '_router-1.js'], css: ['assets/badge-1.css'] },
  'src/features/browse/BrowsePage.tsx': { file: 'assets/BrowsePage-1.js', imports: ['_badge-1.js', '_api-1.js'], css: ['assets/browse-1.css'] },
  'src/features/public-site/AboutPage.tsx': { file: 'assets/AboutPage-1.js', imports: ['_badge-1.js'] },
};
const texts: Record<string, string> = { 'assets/badge-1.css': '.badge{color:red}', 'assets/browse-1.css': '.browse{display:grid}' };
const styleText = (file: string) => texts[file] ?? null;

const inlined = (file: string) => `<style data-href="/${file}">${texts[file]}</style><link rel="stylesheet" crossorigin href="/${file}" disabled>`;

describe('pageAssets (ADR 0072)', () => {
  it("inlines a page's styles and names its scripts with what they import, leaving out what index.html loads", () => {
    const assets = pageAssets(manifest, ['src/features/browse/BrowsePage.tsx'], styleText);
    expect(assets.styles.split('\n    ')).toEqual([inlined('assets/badge-1.css'), inlined('assets/browse-1.css')]);
    expect(assets.scripts).toEqual(['/assets/badge-1.js', '/assets/BrowsePage-1.js']);
  });

  it('names a chunk two pages share once, and nothing for a page the manifest does not know', () => {
    const assets = pageAssets(manifest, ['src/features/browse/BrowsePage.tsx', 'src/features/public-site/AboutPage.tsx'], styleText);
    expect(assets.scripts).toEqual(['/assets/badge-1.js', '/assets/BrowsePage-1.js', '/assets/AboutPage-1.js']);
    expect(assets.styles.match(/\.badge\{/g)).toHaveLength(1);
    expect(pageAssets(manifest, ['src/nowhere.tsx'], styleText)).toEqual({ styles: '', scripts: [] });
  });

  it('links a stylesheet it cannot read, or whose text could close the style element', () => {
    const closing = (file: string) => (file === 'assets/badge-1.css' ? '.a{}</style><script>alert(1)</script>' : null);
    const { styles } = pageAssets(manifest, ['src/features/browse/BrowsePage.tsx'], closing);
    expect(styles.split('\n    ')).toEqual(['<link rel="stylesheet" crossorigin href="/assets/badge-1.css">', '<link rel="stylesheet" crossorigin href="/assets/browse-1.css">']);
  });
});

describe('serverTemplate', () => {
  it("inlines index.html's stylesheets in place, takes out its module preloads in order, and leaves every other tag alone", () => {
    const html = [
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/badge-1.css">',
      '<link rel="stylesheet" crossorigin href="/assets/missing-1.css">',
      '<link rel="modulepreload" crossorigin href="/assets/api-1.js">',
      '<link rel="modulepreload" crossorigin href="/assets/start-1.js">',
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
    ].join('\n');
    const { template, scripts } = serverTemplate(html, styleText);
    expect(template.split('\n')).toEqual([
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      inlined('assets/badge-1.css'),
      '<link rel="stylesheet" crossorigin href="/assets/missing-1.css">',
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
    ]);
    expect(scripts).toEqual(['/assets/api-1.js', '/assets/start-1.js']);
  });
});

import { pageAssetLinks, type BuildManifest } from './page-assets';

const manifest: BuildManifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_api-1.js'], css: ['assets/index-1.css'] },
  '_api-1.js': { file: 'assets/api-1.js', css: ['assets/shared-1.css'] },
  '_badge-1.js': { file: 'assets/badge-1.js', imports: ['_api-1.js'], css: ['assets/badge-1.css'] },
  'src/features/browse/BrowsePage.tsx': { file: 'assets/BrowsePage-1.js', imports: ['_badge-1.js', '_api-1.js'], css: ['assets/browse-1.css'] },
  'src/features/public-site/AboutPage.tsx': { file: 'assets/AboutPage-1.js', imports: ['_badge-1.js'] },
};

describe('pageAssetLinks (ADR 0072)', () => {
  it("links a page's styles and preloads its scripts with what they import, leaving out what the entry loads", () => {
    expect(pageAssetLinks(manifest, ['src/features/browse/BrowsePage.tsx']).split('\n    ')).toEqual([
      '<link rel="stylesheet" crossorigin href="/assets/badge-1.css">',
      '<link rel="stylesheet" crossorigin href="/assets/browse-1.css">',
      '<link rel="modulepreload" crossorigin href="/assets/badge-1.js">',
      '<link rel="modulepreload" crossorigin href="/assets/BrowsePage-1.js">',
    ]);
  });

  it('names a chunk two pages share once, and nothing for a page the manifest does not know', () => {
    const links = pageAssetLinks(manifest, ['src/features/browse/BrowsePage.tsx', 'src/features/public-site/AboutPage.tsx']);
    expect(links.match(/badge-1\.js/g)).toHaveLength(1);
    expect(links).toContain('AboutPage-1.js');
    expect(pageAssetLinks(manifest, ['src/nowhere.tsx'])).toBe('');
  });
});

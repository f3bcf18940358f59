import { PAGE_MODULES_ELEMENT_ID, pageModulesElement, pageModulesOf, preloadModules } from './page-modules';

/** The text of the data block in `html`, as the browser's textContent reads it (no entity decoding happens in a script). */
const blockText = (html: string) => new RegExp(`<script type="application/json" id="${PAGE_MODULES_ELEMENT_ID}">(.*?)</script>`).exec(html)?.[1];

const ORIGIN = 'https://market.example';

describe('page modules (ADR 0072, amended)', () => {
  it('reads back the paths the server wrote, a "<" in one unable to close the element', () => {
    const html = pageModulesElement(['/assets/a-1.js', '/assets/</script>-2.js']);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(pageModulesOf(blockText(html), ORIGIN)).toEqual(['/assets/a-1.js', '/assets/</script>-2.js']);
  });

  it("names nothing when the block is missing or unreadable, and only this site's built scripts, as the browser reads a URL", () => {
    expect(pageModulesOf(undefined, ORIGIN)).toEqual([]);
    expect(pageModulesOf('{not json', ORIGIN)).toEqual([]);
    expect(pageModulesOf('{"a":1}', ORIGIN)).toEqual([]);
    const named = ['//evil.example/x.js', 'https://evil.example/y.js', '/\\evil.example/z.js', '/\t/evil.example/w.js', 7, '/api/uploads/a.js', '/assets/a.css', '/assets/ok.js', `${ORIGIN}/assets/also.js`];
    expect(pageModulesOf(JSON.stringify(named), ORIGIN)).toEqual(['/assets/ok.js', `${ORIGIN}/assets/also.js`]);
  });

  it('preloads each named module as a module, in order', () => {
    const appended: Array<Record<string, string>> = [];
    const doc = { createElement: () => ({}) as HTMLLinkElement, head: { append: (link: Record<string, string>) => appended.push({ ...link }) } };
    preloadModules(doc as unknown as Pick<Document, 'createElement' | 'head'>, ['/assets/a-1.js', '/assets/b-1.js']);
    expect(appended).toEqual([
      { rel: 'modulepreload', crossOrigin: '', href: '/assets/a-1.js' },
      { rel: 'modulepreload', crossOrigin: '', href: '/assets/b-1.js' },
    ]);
  });
});

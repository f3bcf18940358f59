import { headHtml, headValues, pageDocument, scriptJson, SITE_DESCRIPTION, STATE_ELEMENT_ID } from './page-head';

const at = { origin: 'https://market.example', path: '/browse?category=Blog' };

describe('headValues (ADR 0072)', () => {
  it('makes the canonical address and the image absolute, defaulting to the asked path and the logo', () => {
    expect(headValues({ title: 'Browse' }, at)).toEqual({
      title: 'Browse | Site Market',
      description: SITE_DESCRIPTION,
      canonical: 'https://market.example/browse?category=Blog',
      image: 'https://market.example/api/uploads/logo.png',
      type: 'website',
      robots: 'index, follow',
      jsonLd: null,
    });
  });

  it('keeps a path that reads as another address a path of this site', () => {
    const values = headValues({ title: 'Page not found' }, { origin: 'https://market.example', path: '//attacker.example/listing/1' });
    expect(values.canonical).toBe('https://market.example//attacker.example/listing/1');
  });

  it("takes the page's own canonical path, image, type, noindex and structured data (given the origin)", () => {
    const values = headValues(
      { title: 'A listing', url: '/listing/1', image: '/api/uploads/a.webp', type: 'article', noindex: true, jsonLd: (origin) => ({ url: `${origin}/listing/1` }) },
      { origin: 'https://market.example', path: '/listing/1?utm_source=x' },
    );
    expect(values).toMatchObject({ canonical: 'https://market.example/listing/1', image: 'https://market.example/api/uploads/a.webp', type: 'article', robots: 'noindex' });
    expect(JSON.parse(values.jsonLd!)).toEqual({ url: 'https://market.example/listing/1' });
  });
});

describe('headHtml and scriptJson', () => {
  it('escapes what a seller typed in attributes and text', () => {
    const html = headHtml(headValues({ title: 'Tea & "Biscuits" <b>', description: "it's <script>" }, at));
    expect(html).toContain('<title>Tea &#38; &#34;Biscuits&#34; &#60;b&#62; | Site Market</title>');
    expect(html).toContain('<meta name="description" content="it&#39;s &#60;script&#62;" />');
    expect(html).not.toMatch(/<script>|<b>/);
  });

  it('writes the canonical link, Open Graph and Twitter tags, and JSON-LD that cannot end its script early', () => {
    const html = headHtml(headValues({ title: 'X', jsonLd: () => ({ name: '</script><script>alert(1)</script>' }) }, at));
    for (const tag of ['<link rel="canonical"', 'property="og:url"', 'property="og:image"', 'name="twitter:card"', 'name="twitter:image"']) expect(html).toContain(tag);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(scriptJson({ a: '<!-- \u2028 & >' })).toBe('{"a":"\\u003c!-- \\u2028 \\u0026 \\u003e"}');
    expect(JSON.parse(scriptJson({ a: '<!-- \u2028 & >' }))).toEqual({ a: '<!-- \u2028 & >' });
  });
});

describe('pageDocument', () => {
  const template = '<html><head><meta charset="UTF-8" /><!--page-head--><title>Site</title><!--/page-head--><link rel="icon" /></head><body><div id="root"></div><script src="/a.js"></script></body></html>';

  it("puts the page's head between the markers, its HTML in the root and the answers after it as a data block", () => {
    const html = pageDocument(template, { head: '<title>Page</title>', body: '<h1>Hi</h1>', state: { api: { q: '</script>' } } })!;
    expect(html).toContain('<!--page-head-->\n    <title>Page</title>\n    <!--/page-head--><link rel="icon" />');
    expect(html).not.toContain('<title>Site</title>');
    expect(html).toContain(`<div id="root"><h1>Hi</h1></div><script type="application/json" id="${STATE_ELEMENT_ID}">{"api":{"q":"\\u003c/script\\u003e"}}</script><script src="/a.js">`);
  });

  it('is null for a template without the markers or the root', () => {
    expect(pageDocument('<html><head></head><body><div id="root"></div></body></html>', { head: '', body: '', state: {} })).toBeNull();
    expect(pageDocument('<!--page-head--><!--/page-head--><body></body>', { head: '', body: '', state: {} })).toBeNull();
  });
});

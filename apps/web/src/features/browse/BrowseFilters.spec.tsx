import { renderStatic } from '../../testing/static-render';
import { BrowseFilters } from './BrowseFilters';
import { DEFAULT_FILTERS } from './browse-params';

const render = (verified_revenue: boolean, verified_traffic: boolean) =>
  renderStatic(<BrowseFilters filters={{ ...DEFAULT_FILTERS, verified_revenue, verified_traffic }} onApply={() => undefined} onClear={() => undefined} />);

/** The checkbox tag named `name`. */
const box = (html: string, name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*/>`))?.[0] ?? '';

describe('BrowseFilters: the verified-figures boxes (D24)', () => {
  it('offers both boxes, labelled, in a named group', () => {
    const html = render(false, false);
    expect(html).toContain('<legend>Verified figures</legend>');
    expect(html).toMatch(/<label class="browse-check"[^>]*><input[^>]*name="verified_revenue"[^>]*\/>Verified revenue<\/label>/);
    expect(html).toMatch(/<label class="browse-check"[^>]*><input[^>]*name="verified_traffic"[^>]*\/>Verified traffic<\/label>/);
    expect(box(html, 'verified_revenue')).not.toContain('checked');
  });

  it('says in each box’s tooltip that the claim is backed by the verified figure (ADR 0084)', () => {
    const html = render(false, false);
    expect(html).toMatch(/title="Only listings whose revenue claim is backed by current Stripe figures[^"]*"><input[^>]*name="verified_revenue"/);
    expect(html).toMatch(/title="Only listings whose traffic claim is backed by current Google Analytics figures[^"]*"><input[^>]*name="verified_traffic"/);
  });

  it('starts each box from the URL’s filters', () => {
    const html = render(true, false);
    expect(box(html, 'verified_revenue')).toContain('checked');
    expect(box(html, 'verified_traffic')).not.toContain('checked');
  });

  it('says beside each box how many listings it would show (the facets of the answer, each under the other filters)', () => {
    const facets = { category: { Blog: 3 }, listing_type: { auction: 2, fixed: 1 }, verified: { revenue: 1234, traffic: 0 } };
    const html = renderStatic(<BrowseFilters filters={DEFAULT_FILTERS} facets={facets} onApply={() => undefined} onClear={() => undefined} />);
    expect(html).toMatch(/name="verified_revenue"[^>]*\/>Verified revenue \(1,234\)<\/label>/);
    expect(html).toMatch(/name="verified_traffic"[^>]*\/>Verified traffic \(0\)<\/label>/);
  });
});

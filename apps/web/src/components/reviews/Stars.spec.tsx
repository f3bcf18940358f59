import { renderToStaticMarkup } from 'react-dom/server';
import type { ReviewDto } from '@market/contracts';
import { Stars, starsFill, starsLabel } from './Stars';
import { StarInput } from './StarInput';
import { ReviewItem } from './ReviewItem';
import { sellerPagePath } from './review-format';

jest.mock('./reviews.css', () => ({}));

describe('Stars (D23)', () => {
  it('names the rating for assistive technology, with one decimal only when it has one', () => {
    expect(starsLabel(4.5)).toBe('4.5 out of 5');
    expect(starsLabel(4)).toBe('4 out of 5');
    expect(starsLabel(3.25)).toBe('3.3 out of 5');
  });

  it('fills the stars to the rating, never past the ends', () => {
    expect(starsFill(4.5)).toBe(90);
    expect(starsFill(1)).toBe(20);
    expect(starsFill(0)).toBe(0);
    expect(starsFill(7)).toBe(100);
    expect(starsFill(-1)).toBe(0);
  });

  it('renders one image named by its value, the glyphs hidden and the gold ones cut to the rating', () => {
    const html = renderToStaticMarkup(<Stars rating={4.5} />);
    expect(html).toMatch(/^<span class="stars stars-normal" role="img" aria-label="4.5 out of 5"/);
    expect(html).toContain('<span class="stars-full" aria-hidden="true" style="width:90%">★★★★★</span>');
    expect(html.match(/aria-hidden="true"/g)).toHaveLength(2);
  });
});

describe('StarInput', () => {
  it('is a group of five native radio buttons under its legend, each named, the chosen one checked', () => {
    const html = renderToStaticMarkup(<StarInput legend="How was it?" value={4} onChange={() => undefined} />);
    expect(html).toMatch(/^<fieldset class="star-input"><legend>How was it\?<\/legend>/);
    expect(html.match(/<input type="radio"/g)).toHaveLength(5);
    expect(html.match(/checked=""/g)).toHaveLength(1);
    expect(html).toMatch(/<input type="radio" aria-invalid="false" name="[^"]+" checked="" value="4"\/>/);
    expect(html).toContain('<span class="visually-hidden">1 star</span>');
    expect(html).toContain('<span class="visually-hidden">5 stars</span>');
    // Stars up to the chosen one are drawn filled.
    expect(html.match(/star-input-choice star-input-on/g)).toHaveLength(4);
  });

  it('ties its error to the group', () => {
    const html = renderToStaticMarkup(<StarInput legend="Stars" value={0} onChange={() => undefined} error="Give 1 to 5 stars" />);
    const describedBy = /<fieldset class="star-input" aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(describedBy).toBeTruthy();
    expect(html).toContain(`<small id="${describedBy}" class="field-error">Give 1 to 5 stars</small>`);
    expect(html.match(/aria-invalid="true"/g)).toHaveLength(5);
  });
});

describe('ReviewItem', () => {
  const review: ReviewDto = {
    id: '3f8c2b52-1c1e-4d0b-9d5e-0a4b7e1c2d3f',
    stars: 2,
    text: 'Slow transfer <script>alert(1)</script>\nbut it arrived',
    author: { username: 'ann_buyer', name: null },
    author_role: 'buyer',
    website_title: 'Heron blog',
    reply: { text: 'Sorry, <b>DNS</b> took long', created_at: '2026-03-14T10:00:00.000Z' },
    created_at: '2026-03-12T10:00:00.000Z',
  };

  it('shows the text and the reply as text, never as markup', () => {
    const html = renderToStaticMarkup(<ReviewItem review={review} replier="Sam" />);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Slow transfer &lt;script&gt;alert(1)&lt;/script&gt;\nbut it arrived');
    expect(html).toContain('Sorry, &lt;b&gt;DNS&lt;/b&gt; took long');
    expect(html).toContain('Reply from Sam');
    expect(html).toContain('aria-label="2 out of 5"');
    expect(html).toContain('ann_buyer');
    expect(html).toContain('Bought Heron blog');
    expect(html).toContain('12 Mar 2026');
  });
});

describe('sellerPagePath', () => {
  it('links page 1 without a query and encodes the username as one segment', () => {
    expect(sellerPagePath('sam')).toBe('/seller/sam');
    expect(sellerPagePath('sam', 1)).toBe('/seller/sam');
    expect(sellerPagePath('sam', 3)).toBe('/seller/sam?page=3');
    expect(sellerPagePath('a/b?c')).toBe('/seller/a%2Fb%3Fc');
  });
});

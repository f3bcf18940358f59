import { renderStatic, visibleText } from '../../testing/static-render';
import { VerifyGa4Page } from './VerifyGa4Page';

const render = (query: string) => visibleText(renderStatic(<VerifyGa4Page />, undefined, `/verify/ga4${query}`));

describe('VerifyGa4Page (/verify/ga4, ADR 0084)', () => {
  it('waits on Google’s code and state while it forwards them', () => {
    const text = render('?code=4%2F0Ab&state=s1');
    expect(text).toContain('Connecting Google Analytics...');
    expect(text).not.toContain('Back to');
  });

  it('explains a consent the seller refused, with a link back', () => {
    const text = render('?error=access_denied&state=s1');
    expect(text).toContain("You did not allow access on Google's page.");
    expect(text).toContain('Back to your listings');
  });

  it('says any other error in fixed words, never the link’s own text', () => {
    const text = render(`?error=${encodeURIComponent('Your account is locked: call 555-0100')}&state=s1`);
    expect(text).toContain('Google did not complete the consent.');
    expect(text).not.toContain('555-0100');
  });

  it('says a link without its code or state cannot finish anything', () => {
    expect(render('?state=s1')).toContain('This link is missing what Google sends back.');
    expect(render('')).toContain('This link is missing what Google sends back.');
  });
});

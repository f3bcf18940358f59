import { Link } from 'react-router-dom';
import { CATEGORIES } from '@market/domain';
import { EXTERNAL_LINKS } from '../../lib/site-links';

/** Site footer: categories, company and policy links, and external tools. */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div>
          <Link to="/" className="brand brand-footer">
            {/* SPEC §2: the footer logo comes from the uploads path (the gateway's default unless one is stored). */}
            <img className="footer-logo" src="/api/uploads/logo.png" alt="Site Market" width={160} height={40} />
          </Link>
          <p className="muted">The marketplace for buying and selling websites and online businesses. Funds held until the transfer is verified.</p>
        </div>
        <div>
          <h3>Categories</h3>
          <ul>
            {CATEGORIES.map((category) => (
              <li key={category}>
                <Link to={`/browse?category=${encodeURIComponent(category)}`}>{category}</Link>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Company</h3>
          <ul>
            <li><Link to="/about">About</Link></li>
            <li><Link to="/contact">Contact</Link></li>
            <li><Link to="/help-center">Help Center</Link></li>
            <li><a href={EXTERNAL_LINKS.valuationTool} target="_blank" rel="noopener noreferrer">Website valuation tool</a></li>
            <li><a href={EXTERNAL_LINKS.premiumDomains} target="_blank" rel="noopener noreferrer">Premium domains</a></li>
          </ul>
        </div>
        <div>
          <h3>Legal</h3>
          <ul>
            <li><Link to="/privacy-policy">Privacy Policy</Link></li>
            <li><Link to="/terms-of-service">Terms of Service</Link></li>
            <li><Link to="/cookie-policy">Cookie Policy</Link></li>
          </ul>
        </div>
      </div>
      <div className="container footer-bottom muted">© {new Date().getFullYear()} Site Market. All prices in USD.</div>
    </footer>
  );
}

import { Link } from 'react-router-dom';
import { usePageMeta } from '../../lib/page-meta';
import { useSellingFeeText } from '../../api/use-selling-fee-text';
import './public-site.css';

const FACTS = [
  { value: '47,000+', label: 'active buyers' },
  { value: '$25,000', label: 'average sale' },
  { value: '30 days', label: 'most sales complete within' },
];

/** /about (SPEC §1, §2): who we are and why trust us. */
export function AboutPage() {
  const feeText = useSellingFeeText();
  usePageMeta({ title: 'About', description: 'Site Market is the marketplace for buying and selling websites and online businesses, with funds held until the transfer is verified.' });
  return (
    <div className="container section public-page">
      <h1>About Site Market</h1>
      <p className="lead">We help people buy and sell websites and online businesses: quickly, safely, and honest about money.</p>
      <ul className="about-facts">
        {FACTS.map((fact) => (
          <li key={fact.label} className="card">
            <strong>{fact.value}</strong>
            <span className="muted">{fact.label}</span>
          </li>
        ))}
      </ul>
      <section className="card prose">
        <h2>What we do</h2>
        <p>
          Sellers list blogs, e-commerce stores, SaaS products, content and affiliate sites. Buyers bid in auctions, make offers or buy at a fixed price. Every listing
          is reviewed within 24 hours before it goes live.
        </p>
        <h2>How we keep it safe</h2>
        <p>
          A buyer&apos;s card is authorised, not charged, and the funds are held until the site&apos;s transfer is verified. Purchases from $5,000 go through escrow
          arranged with the seller, and every buyer can dispute until the funds are released to the seller.
        </p>
        <h2>What it costs</h2>
        <p>{feeText} Prices are in US dollars, in whole dollars.</p>
        <h2>Talk to us</h2>
        <p>
          Questions about a listing, a payment or your account? <Link to="/contact">Contact us</Link> or read the <Link to="/help-center">Help Center</Link>.
        </p>
      </section>
    </div>
  );
}

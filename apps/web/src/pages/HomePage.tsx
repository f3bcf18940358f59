import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { HOME_CATEGORIES } from '@market/domain';
import { EXTERNAL_LINKS } from '../lib/site-links';
import { useSellingFeeText } from '../api/use-selling-fee-text';
import { FeaturedListings } from '../features/home/FeaturedListings';
import { SITE_NAME, usePageMeta } from '../lib/page-meta';

const STATS = [
  { value: '47,000+', label: 'Active buyers' },
  { value: '$25,000', label: 'Average sale' },
  { value: 'Within 30 days', label: 'Most sales close' },
];

/** Home: hero search, marketplace stats, featured listings, category tiles and the valuation promo (SPEC §2). */
export function HomePage() {
  usePageMeta({ title: SITE_NAME, description: 'Buy and sell websites and online businesses. Auctions and fixed prices, funds held until the transfer is verified.' });
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const feeText = useSellingFeeText();

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    const text = search.trim();
    navigate(text ? `/browse?search=${encodeURIComponent(text)}` : '/browse');
  };

  return (
    <>
      <section className="hero">
        <div className="container">
          <h1>Buy and sell websites and online businesses</h1>
          <p className="hero-lead">Auctions and fixed prices, verified sellers, and funds held until the transfer is done.</p>
          <form className="hero-search" onSubmit={onSearch} role="search">
            <input
              aria-label="Search listings"
              placeholder="Search blogs, SaaS, e-commerce stores..."
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <button type="submit" className="btn btn-primary">
              Search
            </button>
          </form>
          <dl className="stats home-stats">
            {STATS.map((stat) => (
              <div key={stat.label}>
                <dt>{stat.label}</dt>
                <dd>{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
      <FeaturedListings />
      <section className="container section">
        <h2>Browse by category</h2>
        <div className="tiles">
          {HOME_CATEGORIES.map((category) => (
            <Link key={category} className="tile" to={`/browse?category=${encodeURIComponent(category)}`}>
              {category}
            </Link>
          ))}
        </div>
      </section>
      <section className="container section">
        <div className="promo card">
          <div>
            <h2>What is your site worth?</h2>
            <p className="muted">Get a free estimate before you list. {feeText}</p>
          </div>
          <a className="btn btn-secondary" href={EXTERNAL_LINKS.valuationTool} target="_blank" rel="noopener noreferrer">
            Get a valuation
          </a>
        </div>
      </section>
    </>
  );
}

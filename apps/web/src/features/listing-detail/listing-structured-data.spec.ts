import { listingStructuredData } from './listing-structured-data';

const base = {
  id: '7f0c2c1e-0000-4000-8000-000000000001',
  title: 'Birdwatch blog',
  description: 'A blog about birds',
  category: 'Blog',
  screenshots: ['/api/uploads/a.webp', '/api/uploads/b.webp'],
  status: 'active' as const,
  listing_type: 'auction' as const,
  seller_id: 's1',
  expires_at: '2027-01-15T12:00:00.000Z',
  current_bid: null,
  starting_price: 1200,
  buy_now_price: 4000,
};

describe('listingStructuredData (ADR 0072)', () => {
  it('is a Product with absolute url and images and one Offer at the starting bid, in stock while active', () => {
    expect(listingStructuredData(base, 'https://market.example')).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Birdwatch blog',
      description: 'A blog about birds',
      category: 'Blog',
      url: `https://market.example/listing/${base.id}`,
      image: ['https://market.example/api/uploads/a.webp', 'https://market.example/api/uploads/b.webp'],
      offers: {
        '@type': 'Offer',
        url: `https://market.example/listing/${base.id}`,
        price: '1200',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        priceValidUntil: '2027-01-15',
      },
    });
  });

  it.each([
    ['sold', 'https://schema.org/SoldOut'],
    ['expired', 'https://schema.org/Discontinued'],
    ['cancelled', 'https://schema.org/Discontinued'],
    ['paused', 'https://schema.org/OutOfStock'],
  ] as const)('says a %s listing is %s', (status, availability) => {
    const data = listingStructuredData({ ...base, status }, 'https://market.example') as { offers: { availability: string } };
    expect(data.offers.availability).toBe(availability);
  });

  it('prices an auction at its current bid, a fixed-price listing at its asking price, and leaves out what it lacks', () => {
    const bid = listingStructuredData({ ...base, current_bid: 2500 }, 'https://market.example') as { offers: { price: string } };
    expect(bid.offers.price).toBe('2500');
    const fixed = listingStructuredData(
      { ...base, listing_type: 'fixed', starting_price: 900, buy_now_price: null, screenshots: [], expires_at: null },
      'https://market.example',
    ) as Record<string, unknown> & { offers: Record<string, unknown> };
    expect(fixed.offers.price).toBe('900');
    expect(fixed).not.toHaveProperty('image');
    expect(fixed.offers).not.toHaveProperty('priceValidUntil');
  });
});

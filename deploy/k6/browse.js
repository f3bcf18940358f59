// k6 load test of browsing (GET /api/listings), the combinations npm run bench:browse measures:
//   k6 run -e BASE_URL=http://localhost:3000 deploy/k6/browse.js
// Load a realistic catalogue first (bench:browse inserts 100,000 rows; npm run seed adds 64 demo listings).
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';

const COMBOS = {
  newest: '',
  category: 'category=SaaS',
  price_asc: 'sort_by=price&sort_order=asc',
  price_desc_range: 'sort_by=price&sort_order=desc&min_price=10000&max_price=100000',
  revenue_desc_min: 'sort_by=monthly_revenue&sort_order=desc&min_revenue=5000',
  auctions: 'listing_type=auction',
  search: 'search=espresso',
  search_category: 'search=coffee&category=Blog',
  page_50: 'page=50',
  featured_home: 'featured=true&limit=6',
};

export const options = {
  scenarios: {
    browse: { executor: 'constant-vus', vus: 20, duration: '60s' },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    http_req_duration: ['p(99)<50'],
  },
};

const names = Object.keys(COMBOS);

export default function () {
  const name = names[Math.floor(Math.random() * names.length)];
  const query = COMBOS[name];
  const res = http.get(`${BASE_URL}/api/listings${query ? `?${query}` : ''}`, { tags: { combo: name } });
  check(res, {
    'browse 200': (r) => r.status === 200,
    'has total': (r) => typeof r.json('total') === 'number',
  });
}

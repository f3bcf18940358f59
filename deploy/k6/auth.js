// k6 load test of the account endpoints: k6 run -e BASE_URL=http://localhost:3000 deploy/k6/auth.js
// Optional: -e ACCOUNTS=50 (accounts setup() registers; each VU logs in and asks /auth/me as one of them, so sessions,
// identity caches and per-account rate limits are spread as with real users) -e DURATION=30s. setup() registers
// ACCOUNTS accounts: run it against a stack whose register limit is lifted (RATE_LIMIT_SCALE=0, as the benchmarks do),
// never against production. setup() fails the run at once if any account could not be registered or logged in.
import http from 'k6/http';
import { check, fail } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';
const ACCOUNTS = Number(__ENV.ACCOUNTS || 50);
const DURATION = __ENV.DURATION || '30s';
const JSON_HEADERS = { 'content-type': 'application/json' };

export const options = {
  scenarios: {
    login: { executor: 'constant-vus', vus: 20, duration: DURATION, exec: 'login' },
    me: { executor: 'constant-vus', vus: 50, duration: DURATION, exec: 'me', startTime: DURATION },
  },
  thresholds: { http_req_failed: ['rate<0.01'], 'http_req_duration{scenario:me}': ['p(99)<100'], checks: ['rate>0.99'] },
  setupTimeout: '5m',
};

/** Registers and logs in ACCOUNTS accounts, ten at a time; fails the run on the first that does not work. */
export function setup() {
  if (!Number.isInteger(ACCOUNTS) || ACCOUNTS < 1) fail(`ACCOUNTS must be a whole number from 1, not ${__ENV.ACCOUNTS}`);
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const accounts = [];
  for (let start = 0; start < ACCOUNTS; start += 10) {
    const batch = [];
    for (let i = start; i < Math.min(start + 10, ACCOUNTS); i++) {
      batch.push({ username: `k6_${tag}_${i}`, email: `k6_${tag}_${i}@example.com`, password: `k6-load-${tag}-${i}`, age_confirmed: true });
    }
    const registered = http.batch(batch.map((user) => ['POST', `${BASE_URL}/api/auth/register`, JSON.stringify(user), { headers: JSON_HEADERS }]));
    registered.forEach((res, i) => {
      if (res.status !== 201) fail(`register ${batch[i].username}: ${res.status} ${res.body} (is the register limit lifted?)`);
    });
    const logins = http.batch(
      batch.map((user) => ['POST', `${BASE_URL}/api/auth/login`, JSON.stringify({ login: user.username, password: user.password }), { headers: JSON_HEADERS }]),
    );
    logins.forEach((res, i) => {
      const token = res.status === 200 ? res.json('access_token') : null;
      if (!token) fail(`login ${batch[i].username}: ${res.status} ${res.body}`);
      accounts.push({ login: batch[i].username, password: batch[i].password, token });
    });
  }
  // The scenarios spread over every account: a short list would concentrate the load the test means to spread.
  if (accounts.length !== ACCOUNTS || new Set(accounts.map((a) => a.token)).size !== ACCOUNTS) {
    fail(`setup made ${accounts.length} accounts with ${new Set(accounts.map((a) => a.token)).size} distinct tokens, not ${ACCOUNTS}`);
  }
  return { accounts };
}

const accountOf = (data) => data.accounts[(__VU - 1) % data.accounts.length];

export function login(data) {
  const account = accountOf(data);
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ login: account.login, password: account.password }), { headers: JSON_HEADERS });
  check(res, { 'login 200': (r) => r.status === 200 });
}

export function me(data) {
  const account = accountOf(data);
  const res = http.get(`${BASE_URL}/api/auth/me`, { headers: { authorization: `Bearer ${account.token}` } });
  check(res, { 'me 200': (r) => r.status === 200, 'me is the account': (r) => r.status === 200 && r.json('username') === account.login });
}

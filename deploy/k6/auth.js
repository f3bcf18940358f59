// k6 load test of the account endpoints: k6 run -e BASE_URL=http://localhost:3000 deploy/k6/auth.js
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';

export const options = {
  scenarios: {
    login: { executor: 'constant-vus', vus: 20, duration: '30s', exec: 'login' },
    me: { executor: 'constant-vus', vus: 50, duration: '30s', exec: 'me', startTime: '30s' },
  },
  thresholds: { http_req_failed: ['rate<0.01'], 'http_req_duration{scenario:me}': ['p(99)<100'] },
};

export function setup() {
  const tag = `${Date.now()}`;
  const user = { username: `k6_${tag}`, email: `k6_${tag}@example.com`, password: `k6-load-${tag}`, age_confirmed: true };
  http.post(`${BASE_URL}/api/auth/register`, JSON.stringify(user), { headers: { 'content-type': 'application/json' } });
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ login: user.username, password: user.password }), {
    headers: { 'content-type': 'application/json' },
  });
  return { user, token: res.json('access_token') };
}

export function login(data) {
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ login: data.user.username, password: data.user.password }), {
    headers: { 'content-type': 'application/json' },
  });
  check(res, { 'login 200': (r) => r.status === 200 });
}

export function me(data) {
  const res = http.get(`${BASE_URL}/api/auth/me`, { headers: { authorization: `Bearer ${data.token}` } });
  check(res, { 'me 200': (r) => r.status === 200 });
}

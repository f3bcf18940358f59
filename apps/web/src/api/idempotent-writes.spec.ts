import { createStore, type AppStore } from '../testing/test-store';
import { bidsApi } from './bids.api';
import { invoicesApi } from './invoices.api';
import { messagesApi } from './messages.api';
import { paymentsApi } from './payments.api';

const ID = '0b6f6f4e-3c1a-4c55-9a55-7f1b6f8f2c11';

/** Each keyed write as the app triggers it (ADR 0047), and a read that must carry no key. */
const writes = {
  placeBid: (store: AppStore) => store.dispatch(bidsApi.endpoints.placeBid.initiate({ listing_id: ID, amount: 100 })),
  buyNow: (store: AppStore) => store.dispatch(invoicesApi.endpoints.buyNow.initiate({ listing_id: ID })),
  sendMessage: (store: AppStore) => store.dispatch(messagesApi.endpoints.sendMessage.initiate({ receiver_id: ID, subject: 'Hi', content: 'Hello' })),
  createPayment: (store: AppStore) => store.dispatch(paymentsApi.endpoints.createPayment.initiate({ invoice_id: ID, return_url: 'http://market.test/x' })),
  capturePayment: (store: AppStore) => store.dispatch(paymentsApi.endpoints.capturePayment.initiate(ID)),
  refundPayment: (store: AppStore) => store.dispatch(paymentsApi.endpoints.refundPayment.initiate(ID)),
};

describe('the web sends an Idempotency-Key per user action, the same one on a retry (ADR 0047)', () => {
  const NodeRequest = globalThis.Request;
  let fetchMock: jest.SpyInstance;
  const sentKeys = () => fetchMock.mock.calls.map(([request]) => (request as Request).headers.get('Idempotency-Key'));

  beforeAll(() => {
    // fetchBaseQuery builds Requests from '/api/...': give them an origin, as a page would.
    globalThis.Request = class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://market.test') : input, init);
      }
    } as typeof Request;
  });
  afterAll(() => {
    globalThis.Request = NodeRequest;
  });
  beforeEach(() => {
    fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ detail: 'refused' }, { status: 409 }));
  });
  afterEach(() => fetchMock.mockRestore());

  it.each(Object.keys(writes) as (keyof typeof writes)[])('%s: a retry after a 5xx repeats the key, the next action after an answer gets a new one', async (name) => {
    const answers = [Response.json({ detail: 'Service temporarily unavailable' }, { status: 503 }), Response.json({}, { status: 200 })];
    fetchMock.mockImplementation(async () => answers.shift() ?? Response.json({ detail: 'refused' }, { status: 400 }));
    const store = createStore();
    await writes[name](store);
    await writes[name](store);
    await writes[name](store);
    const [first, retry, next] = sentKeys();
    expect(first).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
    expect(retry).toBe(first);
    expect(next).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
    expect(next).not.toBe(first);
  });

  it('sends none on other writes', async () => {
    const store = createStore();
    await store.dispatch(messagesApi.endpoints.markMessageRead.initiate(ID));
    expect(sentKeys()).toEqual([null]);
  });

  it('keys a bid by its maximum too: a retry repeats it, another maximum is another request (ADR 0055)', async () => {
    const answers = [503, 503, 201].map((status) => Response.json({ detail: 'Service temporarily unavailable' }, { status }));
    fetchMock.mockImplementation(async () => answers.shift() ?? Response.json({}, { status: 201 }));
    const store = createStore();
    const bid = (max_amount?: number) =>
      store.dispatch(bidsApi.endpoints.placeBid.initiate(max_amount === undefined ? { listing_id: ID, amount: 100 } : { listing_id: ID, amount: 100, max_amount }));
    await bid(500);
    await bid(600);
    await bid(500);
    await bid();
    const [first, otherMax, retry, noMax] = sentKeys();
    expect(retry).toBe(first);
    expect(otherMax).not.toBe(first);
    expect(noMax).not.toBe(first);
    expect(noMax).not.toBe(otherMax);
    const bodies = await Promise.all(fetchMock.mock.calls.map(([request]) => (request as Request).clone().json()));
    expect(bodies).toEqual([
      { listing_id: ID, amount: 100, max_amount: 500 },
      { listing_id: ID, amount: 100, max_amount: 600 },
      { listing_id: ID, amount: 100, max_amount: 500 },
      { listing_id: ID, amount: 100 },
    ]);
  });
});

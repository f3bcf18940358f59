import { randomBytes } from 'node:crypto';
import { broken, json, StandInServer, type StandInAddress, type StandInAnswer, type StandInBehaviour, type StandInCall } from './stand-in-server';

/** A charge as the stand-in keeps it: the fields of Stripe's Charge object the revenue reader reads. */
export interface StandInCharge {
  id: string;
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  status: 'succeeded' | 'pending' | 'failed';
  /** Unix seconds. */
  created: number;
  calculated_statement_descriptor?: string | null;
}

/** A charge to register: amount and created are required, the rest defaults to a captured USD charge, unrefunded. */
export type StandInChargeInput = Partial<StandInCharge> & Pick<StandInCharge, 'amount' | 'created'>;

/** One account behind a restricted key. */
export interface StandInAccount {
  charges: StandInCharge[];
  behaviour?: StandInBehaviour;
}

/** A GET /v1/charges as the stand-in saw it: for asserting what the SDK sent (limit, created[gte], pages). */
export interface StandInListCall {
  key: string | null;
  params: Record<string, string>;
}

/** The masked form Stripe prints a key in (its prefix and last four), so the stand-in's errors look like Stripe's. */
const masked = (key: string) => `${key.slice(0, key.indexOf('_', 3) + 1)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

/**
 * A stand-in of Stripe's charges list for tests (ADR 0084): GET /v1/charges as Stripe answers it to a restricted key,
 * newest first, with `limit` (10 by default, at most 100), `starting_after` and `created[gte|gt|lte|lt]`, Bearer
 * authentication and Stripe's error JSON. Each key is an account (`accounts`) whose behaviour can be a revoked key
 * (401), a key without Charges: Read (403), a slow answer (`slowMs`) or a broken one (`brokenAs`).
 */
export class StripeChargesStandIn {
  /** Accounts by restricted key. */
  readonly accounts = new Map<string, StandInAccount>();
  /** Every list call, in order. */
  readonly calls: StandInListCall[] = [];
  /** How long a 'slow' account holds its answer: longer than any timeout a test gives the reader. */
  slowMs = 10_000;
  /** What a 'broken' account answers. */
  brokenAs: 'status_500' | 'malformed_json' = 'status_500';
  /** The sandbox's accounts (ADR 0084): charges for a key never registered, or null for an unknown key (401). */
  openAccounts: ((key: string) => StandInChargeInput[] | null) | null = null;
  private readonly server = new StandInServer((call) => this.serve(call));
  private sequence = 0;

  /** How many requests the stand-in has answered or is holding. */
  get requests(): number {
    return this.calls.length;
  }

  /** Starts on 127.0.0.1 and a free port; answers the SDK's host, port and protocol. */
  start(): Promise<StandInAddress> {
    return this.server.start();
  }

  /** Stops, dropping any held-back answer. */
  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Registers (or replaces) the account behind `key`; answers the charges as kept. */
  addAccount(key: string, charges: StandInChargeInput[], behaviour: StandInBehaviour = 'ok'): StandInCharge[] {
    const kept = charges.map((input) => this.charge(input));
    this.accounts.set(key, { charges: kept, behaviour });
    return kept;
  }

  private charge(input: StandInChargeInput): StandInCharge {
    const status = input.status ?? 'succeeded';
    return {
      id: input.id ?? `ch_${(++this.sequence).toString().padStart(6, '0')}${randomBytes(6).toString('hex')}`,
      amount_captured: status === 'succeeded' ? input.amount : 0,
      amount_refunded: 0,
      currency: 'usd',
      ...input,
      status,
    };
  }

  private serve(call: StandInCall): StandInAnswer {
    const params = Object.fromEntries(call.url.searchParams);
    const auth = /^Bearer (.+)$/.exec(String(call.headers.authorization ?? ''));
    const key = auth ? auth[1] : null;
    this.calls.push({ key, params });
    if (!key) return json(401, { error: { type: 'invalid_request_error', message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').' } });
    const opened = this.accounts.has(key) ? null : this.openAccounts?.(key);
    if (opened) this.addAccount(key, opened);
    const account = this.accounts.get(key);
    if (!account) return json(401, { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${masked(key)}` } });
    switch (account.behaviour ?? 'ok') {
      case 'revoked':
        return json(401, { error: { type: 'invalid_request_error', code: 'api_key_expired', message: `Expired API Key provided: ${masked(key)}` } });
      case 'no_permission':
        // Stripe answers a restricted key without the permission with a 403 (the SDK's StripePermissionError).
        return json(403, { error: { type: 'invalid_request_error', message: `The provided key '${masked(key)}' does not have the required permissions for this endpoint on account 'acct_standin'. Having the 'rak_charge_read' permission would allow this request to continue.` } });
      case 'slow':
        return { ...this.list(account, call.method, call.url.pathname, params), delayMs: this.slowMs };
      case 'broken':
        return broken(this.brokenAs, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      default:
        return this.list(account, call.method, call.url.pathname, params);
    }
  }

  private list(account: StandInAccount, method: string, path: string, params: Record<string, string>): StandInAnswer {
    if (method !== 'GET' || path !== '/v1/charges') {
      return json(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } });
    }
    const limit = params.limit === undefined ? 10 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return json(400, { error: { type: 'invalid_request_error', param: 'limit', message: 'This value must be less than or equal to 100 (it currently is greater than 100).' } });
    }
    const bounds: Array<[string, (created: number, bound: number) => boolean]> = [
      ['created[gte]', (c, b) => c >= b],
      ['created[gt]', (c, b) => c > b],
      ['created[lte]', (c, b) => c <= b],
      ['created[lt]', (c, b) => c < b],
      ['created', (c, b) => c === b],
    ];
    // Newest first as Stripe lists them; of two made in the same second, the one registered later is the newer.
    let charges = account.charges.map((charge, index) => ({ charge, index })).sort((a, b) => b.charge.created - a.charge.created || b.index - a.index).map(({ charge }) => charge);
    for (const [name, keep] of bounds) {
      if (params[name] !== undefined) charges = charges.filter((charge) => keep(charge.created, Number(params[name])));
    }
    if (params.starting_after !== undefined) {
      const at = charges.findIndex((charge) => charge.id === params.starting_after);
      if (at === -1) return json(400, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'starting_after', message: `No such charge: '${params.starting_after}'` } });
      charges = charges.slice(at + 1);
    }
    const page = charges.slice(0, limit).map((charge) => ({
      object: 'charge',
      ...charge,
      calculated_statement_descriptor: charge.calculated_statement_descriptor ?? null,
      captured: charge.amount_captured > 0,
      paid: charge.status === 'succeeded',
      refunded: charge.amount_refunded > 0 && charge.amount_refunded >= charge.amount,
      livemode: false,
    }));
    return json(200, { object: 'list', data: page, has_more: charges.length > limit, url: '/v1/charges' }, { 'Request-Id': `req_${randomBytes(7).toString('hex')}` });
  }
}

/**
 * The sandbox card form's fields (D12). Callers send them with `initiate(arg, { track: false })` (see sendCard), so not
 * even the request's bookkeeping lands in the store; the number travels in the request body only.
 */
export interface SandboxCardFields {
  card_number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

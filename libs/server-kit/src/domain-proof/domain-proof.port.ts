/**
 * The port through which services look at a domain for an ownership proof (ADR 0040): its TXT records and its
 * well-known file. The production adapter is NodeDomainProofLookup; the lookups never reach a non-public address.
 */
export interface DomainProofLookup {
  /** The domain's TXT records (each a list of character strings), or why they could not be read. */
  txt(domain: string, signal: AbortSignal): Promise<TxtLookup>;
  /** The body of `https://<domain>/.well-known/site-market-verification.txt`, or why it could not be read. */
  wellKnownFile(domain: string, signal: AbortSignal): Promise<FileLookup>;
}

/** Why a lookup found nothing to match: the details go into the {detail} a seller or buyer reads. */
export type LookupFailure =
  | { failure: 'timeout' }
  | { failure: 'no_domain' }
  | { failure: 'not_public'; address: string }
  | { failure: 'http_status'; status: number }
  | { failure: 'too_large' }
  | { failure: 'unreachable'; reason: string };

export type TxtLookup = { records: string[][] } | LookupFailure;
export type FileLookup = { body: string } | LookupFailure;

/** Nest token under which a service finds its DomainProofLookup. */
export const DOMAIN_PROOF_LOOKUP = Symbol('DOMAIN_PROOF_LOOKUP');

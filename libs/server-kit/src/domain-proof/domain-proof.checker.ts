import { Inject, Injectable } from '@nestjs/common';
import { fileProof, OWNERSHIP_FILE_PATH, ownershipRecord, txtProof } from '@market/domain';
import { DOMAIN_PROOF_LOOKUP, type DomainProofLookup, type FileLookup, type LookupFailure, type TxtLookup } from './domain-proof.port';
import { DOMAIN_PROOF_TIMEOUT, type DomainProofTimeout } from './domain-proof.config';

/** What a check found: the token and where, or a reason with the sentence that tells the person what to do next. */
export type ProofCheck =
  | { verified: true; method: 'dns' | 'file' }
  | { verified: false; reason: 'timeout' | 'other_token' | 'not_found' | 'not_public'; detail: string };

const failed = (result: TxtLookup | FileLookup): result is LookupFailure => 'failure' in result;

/**
 * Looks for a token on a domain (TXT record and well-known file at once, within one deadline) and says what it found
 * (ADR 0040). Services turn a failed check into a 400 (fix the record, then check again) or a 503 (the domain did not
 * answer in time).
 */
@Injectable()
export class DomainProofChecker {
  constructor(
    @Inject(DOMAIN_PROOF_LOOKUP) private readonly lookup: DomainProofLookup,
    @Inject(DOMAIN_PROOF_TIMEOUT) private readonly timeout: DomainProofTimeout,
  ) {}

  /** Checks `domain` for `token`, answering within the configured timeout (plus a little for the answer itself). */
  async check(domain: string, token: string): Promise<ProofCheck> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeout.ms);
    try {
      const [txt, file] = await Promise.all([
        this.lookup.txt(domain, deadline.signal).catch((error: Error): TxtLookup => ({ failure: 'unreachable', reason: error.message })),
        this.lookup.wellKnownFile(domain, deadline.signal).catch((error: Error): FileLookup => ({ failure: 'unreachable', reason: error.message })),
      ]);
      return judge(domain, token, txt, file);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The outcome of both lookups: a match anywhere wins; otherwise the most useful thing to tell the person. */
export function judge(domain: string, token: string, txt: TxtLookup, file: FileLookup): ProofCheck {
  const txtMatch = failed(txt) ? 'none' : txtProof(txt.records, token);
  const fileMatch = failed(file) ? 'none' : fileProof(file.body, token);
  if (txtMatch === 'match') return { verified: true, method: 'dns' };
  if (fileMatch === 'match') return { verified: true, method: 'file' };
  const how = `Add a TXT record "${ownershipRecord(token)}" to ${domain}, or serve the token at https://${domain}${OWNERSHIP_FILE_PATH}, then check again.`;
  if (txtMatch === 'other_token' || fileMatch === 'other_token') {
    return {
      verified: false,
      reason: 'other_token',
      detail: `${domain} shows a site-market-verification token, but not this one. Replace it with "${token}" (DNS changes can take a few minutes to appear), then check again.`,
    };
  }
  const notPublic = [txt, file].find((r): r is Extract<LookupFailure, { failure: 'not_public' }> => failed(r) && r.failure === 'not_public');
  if (notPublic) {
    return {
      verified: false,
      reason: 'not_public',
      detail: `${domain} points at a private or reserved address (${notPublic.address}), which we never connect to. ${how}`,
    };
  }
  // A lookup that did not finish cannot say the token is absent: the person is told to try again, not to fix a record.
  const fileTimedOut = failed(file) && file.failure === 'timeout';
  const txtTimedOut = failed(txt) && txt.failure === 'timeout';
  if (fileTimedOut || (txtTimedOut && failed(file))) {
    return { verified: false, reason: 'timeout', detail: `${domain} did not answer in time. Please try again in a minute; if it keeps failing, check that the domain resolves.` };
  }
  if (failed(txt) && txt.failure === 'no_domain' && failed(file)) {
    return { verified: false, reason: 'not_found', detail: `${domain} does not exist in DNS. Check the website address of the listing. ${how}` };
  }
  return { verified: false, reason: 'not_found', detail: `We found no site-market-verification record for this token on ${domain}. ${how}` };
}

import type { Provider } from '@nestjs/common';
import { DomainProofChecker } from './domain-proof.checker';
import { DOMAIN_PROOF_TIMEOUT, domainProofSettings, type DomainProofConfig } from './domain-proof.config';
import { DOMAIN_PROOF_LOOKUP } from './domain-proof.port';
import { NodeDomainProofLookup } from './node-domain-proof.adapter';

/** The checker with the production adapter, set up from a service's config (ADR 0040). */
export function domainProofProviders(config: Partial<DomainProofConfig>): Provider[] {
  const settings = domainProofSettings(config);
  return [
    { provide: DOMAIN_PROOF_LOOKUP, useValue: new NodeDomainProofLookup(settings) },
    { provide: DOMAIN_PROOF_TIMEOUT, useValue: { ms: settings.timeoutMs } },
    DomainProofChecker,
  ];
}

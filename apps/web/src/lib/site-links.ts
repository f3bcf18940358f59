// Set by vite.config.ts from VITE_PREMIUM_DOMAINS_URL and VITE_VALUATION_URL when the app is built; absent in tests.
declare const __PREMIUM_DOMAINS_URL__: string | undefined;
declare const __VALUATION_URL__: string | undefined;

/** Where the external links point when the build names no other site. */
export const DEFAULT_EXTERNAL_LINKS = {
  premiumDomains: 'https://www.afternic.com/',
  valuationTool: 'https://www.worthofweb.com/',
} as const;

/** A configured address when it is an http(s) URL, else the default: a typo must not make a broken or unsafe link. */
export function externalLink(configured: string | undefined, fallback: string): string {
  if (!configured) return fallback;
  try {
    const url = new URL(configured);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : fallback;
  } catch {
    return fallback;
  }
}

/** External sites the header and footer link to (SPEC §2), from the build's configuration. */
export const EXTERNAL_LINKS = {
  premiumDomains: externalLink(typeof __PREMIUM_DOMAINS_URL__ === 'string' ? __PREMIUM_DOMAINS_URL__ : undefined, DEFAULT_EXTERNAL_LINKS.premiumDomains),
  valuationTool: externalLink(typeof __VALUATION_URL__ === 'string' ? __VALUATION_URL__ : undefined, DEFAULT_EXTERNAL_LINKS.valuationTool),
} as const;

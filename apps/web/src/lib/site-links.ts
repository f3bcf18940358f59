/** External sites the header and footer link to (SPEC §2). */
export const EXTERNAL_LINKS = {
  premiumDomains: 'https://www.afternic.com/',
  valuationTool: 'https://www.worthofweb.com/',
} as const;

// A session's device as people say it ("Chrome on Linux"), read from the User-Agent its login sent. Order matters:
// Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari", and iOS browsers all say "Safari".
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(?:Headless)?Chrome\//, 'Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const MAX_RAW = 40;

/**
 * A readable summary of a User-Agent: "<browser> on <system>" for browsers ("Chrome on Linux", "Safari on iPhone"),
 * the program's name for other clients ("curl"), "Unknown device" when none was sent.
 */
export function deviceSummary(userAgent: string | null | undefined): string {
  const agent = userAgent?.trim() ?? '';
  if (!agent) return 'Unknown device';
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  // Not a known browser: "Mozilla/…" is some other browser; other programs go by their first product token
  // ("curl/8.5.0" -> "curl"), else by the start of what they sent.
  const product = /^([A-Za-z][\w.-]*)\/[\w.]+/.exec(agent)?.[1];
  const name = product === 'Mozilla' ? 'Browser' : (product ?? agent);
  const base = name.length > MAX_RAW ? `${name.slice(0, MAX_RAW - 1)}…` : name;
  return system ? `${base} on ${system}` : base;
}

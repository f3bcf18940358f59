// Procedural 'website screenshots' for demo listings: a home page laid out for the category, an inner page,
// and a traffic-analytics view, all flat colours from a seeded palette so every run draws the same images.
import { Canvas, hex, mix, seededRandom } from './png.mjs';

export const SHOT_WIDTH = 1200;
export const SHOT_HEIGHT = 750;

const PALETTES = [
  ['#1d4ed8', '#f59e0b', '#0f172a'],
  ['#047857', '#f97316', '#052e16'],
  ['#7c3aed', '#ec4899', '#1e1b4b'],
  ['#b91c1c', '#facc15', '#1c1917'],
  ['#0e7490', '#a3e635', '#083344'],
  ['#c2410c', '#0ea5e9', '#292524'],
  ['#be185d', '#14b8a6', '#3b0764'],
  ['#334155', '#22c55e', '#020617'],
  ['#4338ca', '#fb7185', '#111827'],
  ['#15803d', '#eab308', '#1a2e05'],
];
const WHITE = [255, 255, 255];

function palette(rand) {
  const [primary, accent, dark] = rand.pick(PALETTES).map(hex);
  const tint = rand() * 0.06 + 0.02;
  return {
    primary,
    accent,
    dark,
    page: mix(WHITE, primary, tint),
    soft: mix(WHITE, primary, 0.14),
    line: mix(WHITE, dark, 0.14),
    muted: mix(WHITE, dark, 0.3),
    text: mix(WHITE, dark, 0.72),
  };
}

/** Lines of 'text' as rounded bars of varying width. */
function textLines(c, rand, x, y, width, lines, colour, height = 10, gap = 10) {
  for (let i = 0; i < lines; i++) {
    const w = i === lines - 1 ? width * (0.35 + rand() * 0.4) : width * (0.82 + rand() * 0.18);
    c.roundRect(x, y + i * (height + gap), w, height, height / 2, colour);
  }
  return y + lines * (height + gap);
}

function header(c, rand, p, name) {
  const dark = rand() < 0.4;
  const bg = dark ? p.dark : WHITE;
  c.rect(0, 0, c.width, 72, bg);
  c.rect(0, 72, c.width, 2, dark ? p.primary : p.line);
  c.roundRect(40, 20, 32, 32, 8, p.primary);
  c.text(84, 29, name.slice(0, 22), 2, dark ? WHITE : p.dark);
  let x = c.width - 190;
  for (let i = 0; i < 4; i++) {
    const w = 50 + rand.int(0, 30);
    x -= w + 28;
    c.roundRect(x, 32, w, 9, 4, dark ? mix(p.dark, WHITE, 0.55) : p.muted);
  }
  c.roundRect(c.width - 170, 18, 130, 38, 8, p.accent);
  c.roundRect(c.width - 145, 33, 80, 8, 4, WHITE);
}

function hero(c, rand, p, y, height, headline) {
  const bands = 4;
  for (let i = 0; i < bands; i++) c.rect(0, y + (height * i) / bands, c.width, height / bands + 1, mix(p.primary, p.dark, i * 0.08));
  c.text(80, y + 60, headline.slice(0, 28), 5, WHITE);
  textLines(c, rand, 80, y + 120, 520, 2, mix(p.primary, WHITE, 0.55), 12, 12);
  c.roundRect(80, y + height - 80, 180, 48, 10, p.accent);
  c.roundRect(110, y + height - 60, 120, 9, 4, p.dark);
  c.roundRect(280, y + height - 80, 160, 48, 10, mix(p.primary, WHITE, 0.2));
  return y + height;
}

function card(c, rand, p, x, y, w, h, imageColour) {
  c.roundRect(x, y, w, h, 12, WHITE);
  c.frame(x, y, w, h, 1, p.line);
  const imageHeight = Math.round(h * 0.52);
  c.roundRect(x + 10, y + 10, w - 20, imageHeight, 8, imageColour);
  textLines(c, rand, x + 18, y + imageHeight + 28, w - 36, 3, p.muted, 9, 11);
}

function blogHome(c, rand, p, name) {
  let y = hero(c, rand, p, 74, 240, rand.pick(['FRESH IDEAS DAILY', 'GUIDES THAT WORK', 'LEARN. BUILD. GROW.']));
  y += 36;
  for (let i = 0; i < 3; i++) {
    const top = y + i * 128;
    c.roundRect(60, top, 180, 108, 10, mix(p.soft, p.accent, rand() * 0.5));
    c.roundRect(264, top + 8, 420, 14, 7, p.text);
    textLines(c, rand, 264, top + 38, 500, 3, p.muted, 9, 12);
  }
  c.roundRect(840, y, 300, 380, 12, WHITE);
  c.frame(840, y, 300, 380, 1, p.line);
  c.text(864, y + 24, 'POPULAR', 2, p.dark);
  for (let i = 0; i < 5; i++) {
    c.circle(880, y + 82 + i * 58, 16, mix(p.soft, p.primary, i * 0.15));
    textLines(c, rand, 910, y + 72 + i * 58, 200, 2, p.muted, 8, 8);
  }
  return name;
}

function shopHome(c, rand, p) {
  let y = hero(c, rand, p, 74, 250, rand.pick(['NEW SEASON DROP', 'FREE SHIPPING', 'SHOP THE SALE']));
  c.circle(940, 74 + 125, 95, p.accent);
  c.roundRect(880, 74 + 70, 120, 110, 16, mix(p.accent, WHITE, 0.5));
  y += 30;
  for (let i = 0; i < 4; i++) {
    const x = 60 + i * 275;
    card(c, rand, p, x, y, 255, 360, mix(p.soft, rand.pick([p.accent, p.primary, p.dark]), 0.25 + rand() * 0.3));
    c.text(x + 18, y + 310, `$${rand.int(12, 149)}`, 3, p.primary);
  }
}

function saasDashboard(c, rand, p) {
  c.rect(0, 74, 220, c.height - 74, p.dark);
  for (let i = 0; i < 7; i++) c.roundRect(28, 110 + i * 44, i === 1 ? 164 : 120, 10, 5, i === 1 ? p.accent : mix(p.dark, WHITE, 0.4));
  const labels = ['MRR', 'USERS', 'CHURN', 'NPS'];
  for (let i = 0; i < 4; i++) {
    const x = 250 + i * 232;
    c.roundRect(x, 100, 212, 110, 12, WHITE);
    c.frame(x, 100, 212, 110, 1, p.line);
    c.text(x + 18, 118, labels[i], 2, p.muted);
    const value = [`$${rand.int(8, 95)}K`, `${rand.int(1, 40)}.${rand.int(0, 9)}K`, `${rand.int(1, 4)}.${rand.int(0, 9)}%`, `${rand.int(30, 72)}`][i];
    c.text(x + 18, 150, value, 4, p.dark);
  }
  areaChart(c, rand, p, 250, 236, 600, 300, 'GROWTH');
  c.roundRect(870, 236, 300, 300, 12, WHITE);
  c.frame(870, 236, 300, 300, 1, p.line);
  for (let i = 0; i < 6; i++) {
    const h = 40 + rand() * 180;
    c.roundRect(900 + i * 44, 500 - h, 28, h, 4, i % 2 ? p.accent : p.primary);
  }
  for (let i = 0; i < 4; i++) {
    c.rect(250, 560 + i * 44, 920, 1, p.line);
    textLines(c, rand, 270, 574 + i * 44, 300, 1, p.muted, 9, 0);
    c.roundRect(1060, 570 + i * 44, 80, 18, 9, mix(WHITE, i % 3 ? p.primary : p.accent, 0.3));
  }
}

/** A traffic chart as column fills under a line: reads as an analytics screenshot. */
function areaChart(c, rand, p, x, y, w, h, title) {
  c.roundRect(x, y, w, h, 12, WHITE);
  c.frame(x, y, w, h, 1, p.line);
  c.text(x + 20, y + 18, title, 2, p.dark);
  const top = y + 50;
  const bottom = y + h - 24;
  for (let g = 0; g < 4; g++) c.rect(x + 20, top + ((bottom - top) * g) / 4, w - 40, 1, p.line);
  let v = 0.2 + rand() * 0.2;
  const points = [];
  const n = 24;
  for (let i = 0; i <= n; i++) {
    v = Math.min(0.95, Math.max(0.08, v + (rand() - 0.38) * 0.12));
    points.push([x + 20 + ((w - 40) * i) / n, bottom - (bottom - top) * v]);
  }
  const fill = mix(WHITE, p.primary, 0.18);
  for (let i = 0; i < n; i++) {
    const [x0, y0] = points[i];
    const [x1, y1] = points[i + 1];
    for (let px = Math.floor(x0); px < x1; px++) {
      const py = y0 + ((y1 - y0) * (px - x0)) / (x1 - x0);
      c.rect(px, py, 1, bottom - py, fill);
    }
  }
  for (let i = 0; i < n; i++) c.line(points[i][0], points[i][1], points[i + 1][0], points[i + 1][1], 3, p.primary);
}

function magazineHome(c, rand, p) {
  c.roundRect(60, 100, 640, 380, 14, mix(p.primary, p.dark, 0.3));
  c.text(90, 380, rand.pick(['TOP STORY', 'EDITORS PICK', 'TRENDING NOW']), 4, WHITE);
  textLines(c, rand, 90, 420, 520, 2, mix(p.primary, WHITE, 0.5), 11, 12);
  for (let i = 0; i < 3; i++) {
    const y = 100 + i * 128;
    c.roundRect(730, y, 150, 110, 10, mix(p.soft, p.accent, 0.2 + i * 0.15));
    textLines(c, rand, 900, y + 10, 240, 4, p.muted, 9, 12);
  }
  for (let i = 0; i < 4; i++) card(c, rand, p, 60 + i * 275, 510, 255, 220, mix(p.soft, p.primary, 0.15 + rand() * 0.3));
}

function affiliateHome(c, rand, p) {
  c.text(60, 110, rand.pick(['BEST PICKS 2026', 'TOP 10 REVIEWED', 'OUR VERDICT']), 4, p.dark);
  textLines(c, rand, 60, 160, 700, 2, p.muted, 10, 12);
  c.roundRect(60, 220, 1080, 48, 8, p.dark);
  c.text(84, 237, 'PRODUCT        RATING        PRICE', 2, WHITE);
  for (let i = 0; i < 6; i++) {
    const y = 280 + i * 72;
    c.roundRect(60, y, 1080, 62, 8, i === 0 ? mix(WHITE, p.accent, 0.2) : WHITE);
    c.frame(60, y, 1080, 62, 1, p.line);
    c.roundRect(80, y + 10, 42, 42, 8, mix(p.soft, p.primary, 0.3 + rand() * 0.4));
    c.roundRect(140, y + 24, 200 + rand.int(0, 80), 12, 6, p.text);
    const stars = 5 - (i > 2 ? 1 : 0);
    for (let s = 0; s < 5; s++) c.circle(460 + s * 26, y + 31, 9, s < stars ? p.accent : p.line);
    c.text(700, y + 22, `$${rand.int(19, 399)}`, 3, p.dark);
    c.roundRect(960, y + 12, 150, 38, 8, p.primary);
    c.roundRect(990, y + 27, 90, 8, 4, WHITE);
  }
}

function membershipHome(c, rand, p) {
  c.text(360, 110, 'CHOOSE YOUR PLAN', 4, p.dark);
  textLines(c, rand, 320, 160, 560, 1, p.muted, 10, 0);
  const prices = [rand.int(5, 12), rand.int(19, 39), rand.int(59, 129)];
  for (let i = 0; i < 3; i++) {
    const x = 110 + i * 340;
    const featured = i === 1;
    c.roundRect(x, featured ? 200 : 220, 300, featured ? 500 : 460, 16, featured ? p.primary : WHITE);
    if (!featured) c.frame(x, 220, 300, 460, 1, p.line);
    const ink = featured ? WHITE : p.dark;
    c.text(x + 30, (featured ? 230 : 250) + 10, ['BASIC', 'PRO', 'TEAM'][i], 3, ink);
    c.text(x + 30, (featured ? 230 : 250) + 60, `$${prices[i]}/MO`, 4, ink);
    for (let f = 0; f < 6; f++) {
      const y = (featured ? 360 : 380) + f * 36;
      c.circle(x + 40, y + 5, 7, featured ? p.accent : p.primary);
      c.roundRect(x + 60, y, 150 + rand.int(0, 60), 10, 5, featured ? mix(p.primary, WHITE, 0.6) : p.muted);
    }
    c.roundRect(x + 30, (featured ? 630 : 610), 240, 44, 10, featured ? p.accent : p.soft);
  }
}

function localHome(c, rand, p) {
  const y = hero(c, rand, p, 74, 300, rand.pick(['BOOK A VISIT TODAY', 'SERVING SINCE 2012', 'OPEN 7 DAYS']));
  c.roundRect(780, 110, 360, 230, 14, mix(p.accent, WHITE, 0.35));
  c.circle(960, 225, 70, mix(p.accent, p.dark, 0.2));
  const mapX = 60;
  const mapY = y + 30;
  c.roundRect(mapX, mapY, 620, 320, 12, mix(WHITE, p.primary, 0.08));
  for (let i = 1; i < 8; i++) c.rect(mapX + i * 78, mapY, 3, 320, WHITE);
  for (let i = 1; i < 5; i++) c.rect(mapX, mapY + i * 64, 620, 3, WHITE);
  c.line(mapX + 40, mapY + 280, mapX + 580, mapY + 40, 8, mix(WHITE, p.accent, 0.5));
  c.circle(mapX + 330, mapY + 150, 18, p.primary);
  c.circle(mapX + 330, mapY + 150, 7, WHITE);
  c.roundRect(720, mapY, 420, 320, 12, WHITE);
  c.frame(720, mapY, 420, 320, 1, p.line);
  c.text(748, mapY + 24, 'OPENING HOURS', 2, p.dark);
  for (let i = 0; i < 6; i++) {
    c.roundRect(748, mapY + 70 + i * 38, 110, 10, 5, p.muted);
    c.text(990, mapY + 66 + i * 38, i === 5 ? 'CLOSED' : `${rand.int(7, 9)}-${rand.int(5, 8)}PM`, 2, p.text);
  }
}

function newsletterHome(c, rand, p) {
  c.rect(0, 74, c.width, 380, p.soft);
  const title = rand.pick(['THE WEEKLY BRIEF', 'SUNDAY DISPATCH', 'SIGNAL OVER NOISE']);
  c.text((c.width - Canvas.textWidth(title, 5)) / 2, 140, title, 5, p.dark);
  textLines(c, rand, 340, 210, 520, 2, p.muted, 11, 12);
  c.roundRect(330, 290, 380, 56, 10, WHITE);
  c.frame(330, 290, 380, 56, 2, p.line);
  c.roundRect(720, 290, 150, 56, 10, p.primary);
  c.roundRect(750, 313, 90, 10, 5, WHITE);
  c.text(420, 380, `${rand.int(4, 90)},${rand.int(100, 999)} READERS`, 2, p.primary);
  for (let i = 0; i < 3; i++) {
    const y = 490 + i * 82;
    c.roundRect(260, y, 680, 70, 10, WHITE);
    c.frame(260, y, 680, 70, 1, p.line);
    c.text(282, y + 16, `NO. ${rand.int(40, 300)}`, 2, p.accent);
    textLines(c, rand, 282, y + 42, 600, 1, p.muted, 9, 0);
  }
}

const HOME = {
  Blog: blogHome,
  'E-commerce': shopHome,
  SaaS: saasDashboard,
  'Content Site': magazineHome,
  'Affiliate Site': affiliateHome,
  'Membership Site': membershipHome,
  'Local Business': localHome,
  Newsletter: newsletterHome,
};

function innerPage(c, rand, p) {
  c.text(160, 110, rand.pick(['HOW WE GREW', 'THE COMPLETE GUIDE', 'CASE STUDY', 'ABOUT US']), 4, p.dark);
  let y = textLines(c, rand, 160, 170, 620, 3, p.muted, 10, 12) + 20;
  c.roundRect(160, y, 620, 220, 12, mix(p.soft, p.accent, 0.2));
  y = textLines(c, rand, 160, y + 250, 620, 6, p.muted, 10, 12);
  c.roundRect(840, 110, 220, 260, 12, p.soft);
  textLines(c, rand, 864, 140, 170, 6, mix(p.soft, p.dark, 0.3), 9, 14);
  c.roundRect(864, 310, 170, 40, 8, p.primary);
}

function analyticsPage(c, rand, p) {
  c.text(60, 100, 'AUDIENCE OVERVIEW', 3, p.dark);
  const stats = [['USERS', `${rand.int(12, 480)}K`], ['SESSIONS', `${rand.int(20, 900)}K`], ['BOUNCE', `${rand.int(32, 68)}%`], ['AVG TIME', `${rand.int(1, 5)}M ${rand.int(10, 59)}S`]];
  stats.forEach(([label, value], i) => {
    const x = 60 + i * 275;
    c.roundRect(x, 140, 255, 100, 12, WHITE);
    c.frame(x, 140, 255, 100, 1, p.line);
    c.text(x + 18, 158, label, 2, p.muted);
    c.text(x + 18, 190, value, 4, p.dark);
  });
  areaChart(c, rand, p, 60, 264, 1080, 300, 'MONTHLY VISITORS');
  const channels = [0.45 + rand() * 0.2, 0.2 + rand() * 0.1, 0.1 + rand() * 0.05];
  ['ORGANIC', 'DIRECT', 'SOCIAL'].forEach((label, i) => {
    const y = 590 + i * 46;
    c.text(60, y + 6, label, 2, p.text);
    c.roundRect(220, y, 700, 24, 12, p.soft);
    c.roundRect(220, y, 700 * channels[i], 24, 12, [p.primary, p.accent, p.dark][i]);
    c.text(940, y + 6, `${Math.round(channels[i] * 100)}%`, 2, p.text);
  });
}

/**
 * Draws screenshot number `index` (0 home, 1 an inner page, 2 analytics) of a listing's site as a PNG.
 * The same category, name and seed always give the same bytes.
 */
export function drawScreenshot({ category, name, seed, index = 0 }) {
  const rand = seededRandom(`${seed}:${name}`);
  const p = palette(rand);
  const c = new Canvas(SHOT_WIDTH, SHOT_HEIGHT, index === 2 ? mix(WHITE, p.dark, 0.03) : p.page);
  header(c, rand, p, name);
  const draw = index === 0 ? (HOME[category] ?? blogHome) : index === 1 ? innerPage : analyticsPage;
  draw(c, rand, p, name);
  return c.toPng();
}

/**
 * Small helpers shared by the product drawings: colour arithmetic, gradient definitions and a
 * few recurring shapes. Everything returns plain SVG markup strings, so the drawings stay
 * deterministic and dependency free.
 */

/** The object's three main colours, lightest first (from SeedArt.palette). */
export type Palette = { light: string; mid: string; dark: string };

/** What a drawing function gets: the colours and a way to make ids unique in the document. */
export type Ctx = {
  p: Palette;
  /** A document-unique id for a gradient or filter; the same name gives the same id. */
  id: (name: string) => string;
};

/** Draws one object in a 1000x1000 local box; it stands on y = GROUND, centred on x = 500. */
export type DrawFn = (c: Ctx) => string;

export const GROUND = 880;

/** Fixed material colours that do not follow the product palette. */
export const WOOD = { light: '#dcb98f', mid: '#b98b5f', dark: '#86603f' };
export const LEAF = { light: '#a9c79b', mid: '#78a172', dark: '#4e7654' };
export const GLOW = { core: '#fff6df', warm: '#ffd791', amber: '#f5a95b' };
export const WATER = { light: '#effafd', mid: '#bfe2ec', dark: '#86bccd' };

/** Rounds to one decimal, which is plenty at 1200 px. */
export function f(x: number): string {
  return String(Math.round(x * 10) / 10);
}

function parse(hex: string): [number, number, number] {
  let h = hex.trim().replace(/^#/, '');
  if (h.length === 3) h = [...h].map((ch) => ch + ch).join('');
  if (!/^[0-9a-fA-F]{6}$/.test(h)) return [128, 128, 128];
  const v = Number.parseInt(h, 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function hex2(v: number): string {
  return Math.max(0, Math.min(255, Math.round(v)))
    .toString(16)
    .padStart(2, '0');
}

/** Linear blend of two colours: t = 0 gives a, t = 1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const [ar, ag, ab] = parse(a);
  const [br, bg, bb] = parse(b);
  return `#${hex2(ar + (br - ar) * t)}${hex2(ag + (bg - ag) * t)}${hex2(ab + (bb - ab) * t)}`;
}

export function lighten(c: string, t: number): string {
  return mix(c, '#ffffff', t);
}

/** Darkens toward a warm near-black, which reads softer than pure black. */
export function darken(c: string, t: number): string {
  return mix(c, '#1f1b18', t);
}

/** Relative luminance in [0, 1] (rough, no gamma), to pick contrasting details. */
export function luma(c: string): number {
  const [r, g, b] = parse(c);
  return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
}

export function url(id: string): string {
  return `url(#${id})`;
}

/** A gradient stop: offset in [0, 1], colour, optional opacity. */
export type Stop = readonly [number, string, number?];

function stops(list: readonly Stop[]): string {
  return list
    .map(
      ([o, c, a]) =>
        `<stop offset="${f(o * 100)}%" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${a}"`}/>`,
    )
    .join('');
}

/** A linear gradient in the shape's bounding box (0..1); default top to bottom. */
export function linear(id: string, list: readonly Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops(list)}</linearGradient>`;
}

/** A linear gradient in user space (for strokes and thin shapes). */
export function linearU(id: string, list: readonly Stop[], x1: number, y1: number, x2: number, y2: number): string {
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}">${stops(list)}</linearGradient>`;
}

/** A radial gradient in the shape's bounding box. */
export function radial(id: string, list: readonly Stop[], cx = 0.5, cy = 0.5, r = 0.5, fx = cx, fy = cy): string {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}" fx="${fx}" fy="${fy}">${stops(list)}</radialGradient>`;
}

/** A soft blur filter with a generous region so blurred edges are not clipped. */
export function blur(id: string, sd: number): string {
  return `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${sd}"/></filter>`;
}

export function defs(...items: string[]): string {
  return `<defs>${items.join('')}</defs>`;
}

/**
 * A flat cylinder (slab, cushion, plate, base) seen from a little above: the side band, then
 * the top ellipse over it.
 */
export function disc(cx: number, cy: number, rx: number, ry: number, h: number, top: string, side: string): string {
  return (
    `<path d="M${f(cx - rx)} ${f(cy)}v${f(h)}a${f(rx)} ${f(ry)} 0 0 0 ${f(2 * rx)} 0v${f(-h)}z" fill="${side}"/>` +
    `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${top}"/>`
  );
}

/** A closed polygon from a flat list of points, with rounded corners by a same-colour stroke. */
export function poly(points: readonly (readonly [number, number])[], fill: string, round = 0, extra = ''): string {
  const pts = points.map(([x, y]) => `${f(x)},${f(y)}`).join(' ');
  const stroke = round > 0 ? ` stroke="${fill}" stroke-width="${round}" stroke-linejoin="round"` : '';
  return `<polygon points="${pts}" fill="${fill}"${stroke}${extra}/>`;
}

/** A lavender sprig: a thin stem with small buds toward the tip, tip at (x, y) pointing along angle. */
export function lavenderSprig(
  x: number,
  y: number,
  len: number,
  angle: number,
  bud = '#9d86c4',
  stem = '#7d9670',
): string {
  const rad = (angle * Math.PI) / 180;
  const dx = Math.cos(rad);
  const dy = Math.sin(rad);
  const bx = x - dx * len;
  const by = y - dy * len;
  let buds = '';
  for (let i = 0; i < 9; i++) {
    const t = i / 9;
    const px = x - dx * len * 0.42 * t;
    const py = y - dy * len * 0.42 * t;
    const side = i % 2 === 0 ? 1 : -1;
    const s = 1 - t * 0.35;
    const ox = -dy * 7 * side * s;
    const oy = dx * 7 * side * s;
    const col = i % 3 === 0 ? mix(bud, '#ffffff', 0.2) : bud;
    buds += `<ellipse cx="${f(px + ox)}" cy="${f(py + oy)}" rx="${f(9 * s)}" ry="${f(6 * s)}" transform="rotate(${f(angle)} ${f(px + ox)} ${f(py + oy)})" fill="${col}"/>`;
  }
  return `<path d="M${f(bx)} ${f(by)}L${f(x)} ${f(y)}" stroke="${stem}" stroke-width="4" stroke-linecap="round"/>${buds}`;
}

/** A simple pointed leaf whose base is at (x, y), pointing along angle (degrees, 0 = right). */
export function leaf(
  x: number,
  y: number,
  len: number,
  width: number,
  angle: number,
  fill: string,
  vein?: string,
): string {
  const w = width / 2;
  const d = `M0 0C${f(len * 0.25)} ${f(-w)} ${f(len * 0.7)} ${f(-w)} ${f(len)} 0C${f(len * 0.7)} ${f(w)} ${f(len * 0.25)} ${f(w)} 0 0Z`;
  const v = vein
    ? `<path d="M${f(len * 0.05)} 0L${f(len * 0.85)} 0" stroke="${vein}" stroke-width="2" stroke-linecap="round" opacity="0.6"/>`
    : '';
  return `<g transform="translate(${f(x)} ${f(y)}) rotate(${f(angle)})"><path d="${d}" fill="${fill}"/>${v}</g>`;
}

/** A cheap deterministic hash of a string, for picking stable variations. */
export function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** Rounds to two decimals, for scale factors. */
export function f2(x: number): string {
  return String(Math.round(x * 100) / 100);
}

/**
 * A soft spot of colour that fades to nothing at its edge: a radial gradient for a glow, mist
 * or shadow. Much cheaper to rasterise than a blur filter.
 */
export function softSpot(id: string, colour: string, opacity: number): string {
  return radial(id, [
    [0, colour, opacity],
    [0.45, colour, Math.round(opacity * 0.62 * 100) / 100],
    [1, colour, 0],
  ]);
}

/**
 * Aromatherapy: the wood grain oil diffuser, the essential oil collection, the soy candle trio
 * and the lavender sleep mist.
 */
import type { Ctx } from './svg.ts';
import {
  darken,
  defs,
  f,
  GLOW,
  LEAF,
  lavenderSprig,
  lighten,
  linear,
  mix,
  poly,
  radial,
  softSpot,
  url,
} from './svg.ts';

export function oilDiffuser(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const ceramic = c.id('od-ceramic');
  const wood = c.id('od-wood');
  const clip = c.id('od-clip');
  const mistW = c.id('od-mist');
  const mistS = c.id('od-mist-shade');
  const glow = c.id('od-glow');
  const bodyPath = 'M330 880C250 800 282 630 430 500Q500 440 570 500C718 630 750 800 670 880Z';
  const out: string[] = [
    defs(
      linear(
        ceramic,
        [
          [0, '#ffffff'],
          [0.55, '#f4f0ea'],
          [1, '#d9d3ca'],
        ],
        0,
        0,
        1,
        0.3,
      ),
      linear(
        wood,
        [
          [0, darken(dark, 0.1)],
          [0.3, mid],
          [0.6, mix(mid, light, 0.6)],
          [1, dark],
        ],
        0,
        0,
        1,
        0,
      ),
      `<clipPath id="${clip}"><path d="${bodyPath}"/></clipPath>`,
      softSpot(mistW, '#ffffff', 0.9),
      softSpot(mistS, mix(mid, '#8d9aa8', 0.5), 0.3),
      radial(glow, [
        [0, GLOW.core, 0.95],
        [0.4, GLOW.warm, 0.6],
        [1, GLOW.warm, 0],
      ]),
    ),
  ];
  out.push(`<ellipse cx="500" cy="860" rx="260" ry="46" fill="${url(glow)}"/>`);
  out.push(`<path d="${bodyPath}" fill="${url(ceramic)}"/>`);
  // wood lower half, clipped to the body, with grain
  let grain = '';
  for (let i = 0; i < 9; i++) {
    const y = 690 + i * 22;
    const wob = i % 2 === 0 ? 10 : -8;
    grain += `M240 ${y}Q370 ${y + 30 + wob} 500 ${y + 22}T760 ${y + 8}`;
  }
  out.push(
    `<g clip-path="${url(clip)}"><path d="M0 650Q500 720 1000 650V1000H0Z" fill="${url(wood)}"/>` +
      `<path d="${grain}" stroke="${darken(dark, 0.2)}" stroke-width="3" fill="none" opacity="0.35"/>` +
      `<ellipse cx="420" cy="760" rx="28" ry="14" fill="none" stroke="${darken(dark, 0.2)}" stroke-width="3" opacity="0.35"/>` +
      `<path d="M0 650Q500 720 1000 650" stroke="${GLOW.warm}" stroke-width="10" fill="none" opacity="0.9"/>` +
      `<path d="M0 650Q500 720 1000 650" stroke="${GLOW.warm}" stroke-width="40" fill="none" opacity="0.15"/>` +
      `<path d="M0 650Q500 720 1000 650" stroke="${GLOW.warm}" stroke-width="24" fill="none" opacity="0.3"/></g>`,
  );
  // highlight on the ceramic dome and the button
  out.push(
    `<path d="M395 560Q430 510 470 492" stroke="#ffffff" stroke-width="16" fill="none" stroke-linecap="round" opacity="0.9"/>`,
  );
  out.push(
    `<circle cx="500" cy="790" r="16" fill="${darken(dark, 0.25)}"/><circle cx="500" cy="790" r="8" fill="${GLOW.warm}"/>`,
  );
  // nozzle and mist plume
  out.push(`<ellipse cx="500" cy="470" rx="30" ry="9" fill="#8d8780"/>`);
  const puffs: [number, number, number, number][] = [
    [502, 420, 30, 42],
    [488, 350, 44, 50],
    [514, 268, 58, 56],
    [494, 188, 70, 56],
    [520, 130, 60, 40],
  ];
  for (const [x, y, rx, ry] of puffs) {
    out.push(`<ellipse cx="${x + 10}" cy="${y + 8}" rx="${f(rx * 1.3)}" ry="${f(ry * 1.3)}" fill="${url(mistS)}"/>`);
  }
  for (const [x, y, rx, ry] of puffs) {
    out.push(`<ellipse cx="${x}" cy="${y}" rx="${f(rx * 1.3)}" ry="${f(ry * 1.3)}" fill="${url(mistW)}"/>`);
  }
  out.push(
    `<path d="M500 462C486 420 520 380 500 330C484 290 520 250 504 200" stroke="#ffffff" stroke-width="14" fill="none" stroke-linecap="round" opacity="0.85"/>`,
  );
  return out.join('');
}

/** One dropper bottle standing at (x, base). */
function bottle(x: number, base: number, glass: string, band: string, hi: string): string {
  const top = base - 220;
  let s = `<path d="M${x - 50} ${base - 12}V${top + 30}Q${x - 50} ${top} ${x - 22} ${top - 14}H${x + 22}Q${x + 50} ${top} ${x + 50} ${top + 30}V${base - 12}Q${x + 50} ${base} ${x + 38} ${base}H${x - 38}Q${x - 50} ${base} ${x - 50} ${base - 12}Z" fill="${glass}"/>`;
  s += `<rect x="${x - 36}" y="${top + 24}" width="12" height="150" rx="6" fill="${hi}" opacity="0.45"/>`;
  // label with a coloured band and a tiny leaf mark
  s += `<rect x="${x - 42}" y="${top + 50}" width="84" height="104" rx="6" fill="#f6f0e4"/>`;
  s += `<rect x="${x - 42}" y="${top + 50}" width="84" height="26" rx="6" fill="${band}"/><rect x="${x - 42}" y="${top + 66}" width="84" height="10" fill="${band}"/>`;
  s += `<path d="M${x} ${top + 130}C${x - 20} ${top + 118} ${x - 14} ${top + 96} ${x + 8} ${top + 92}C${x + 12} ${top + 110} ${x + 10} ${top + 124} ${x} ${top + 130}Z" fill="${band}" opacity="0.85"/>`;
  s += `<rect x="${x - 26}" y="${top + 138}" width="52" height="5" rx="2.5" fill="#cbbfae"/>`;
  // neck, ribbed cap and rubber bulb
  s += `<rect x="${x - 20}" y="${top - 30}" width="40" height="20" fill="${darken(glass, 0.2)}"/>`;
  s += `<rect x="${x - 30}" y="${top - 96}" width="60" height="70" rx="8" fill="#2f2c2a"/>`;
  for (let i = 0; i < 5; i++)
    s += `<rect x="${x - 24 + i * 12}" y="${top - 90}" width="4" height="58" rx="2" fill="#4a4643"/>`;
  s += `<path d="M${x - 18} ${top - 96}C${x - 20} ${top - 150} ${x + 20} ${top - 150} ${x + 18} ${top - 96}Z" fill="#3b3735"/>`;
  s += `<ellipse cx="${x - 6}" cy="${top - 124}" rx="4" ry="12" fill="#ffffff" opacity="0.25"/>`;
  return s;
}

export function essentialOils(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const glass = c.id('eo-glass');
  const kraft = c.id('eo-kraft');
  const bands = ['#a48bc4', '#7fae8a', '#e3a857', '#d98f8f', '#79a6c4', '#c7b06a'];
  const out: string[] = [
    defs(
      linear(
        glass,
        [
          [0, darken(dark, 0.15)],
          [0.3, mid],
          [0.55, mix(mid, light, 0.5)],
          [1, darken(dark, 0.2)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(kraft, [
        [0, '#dcc5a0'],
        [1, '#c6a97e'],
      ]),
    ),
  ];
  // inside of the open box
  out.push(
    poly(
      [
        [180, 700],
        [800, 700],
        [840, 640],
        [220, 640],
      ],
      '#9b8060',
    ),
  );
  const hi = lighten(light, 0.5);
  // back row, then front row
  bands.forEach((b, i) => {
    const front = i >= 3;
    out.push(bottle((front ? 250 : 300) + (i % 3) * 200, front ? 742 : 680, url(glass), b, hi));
  });
  // front and side of the box
  out.push(`<rect x="180" y="700" width="620" height="180" rx="6" fill="${url(kraft)}"/>`);
  out.push(
    poly(
      [
        [800, 700],
        [840, 640],
        [840, 820],
        [800, 880],
      ],
      '#b0936b',
    ),
  );
  out.push(`<rect x="180" y="700" width="620" height="10" fill="#efe0c6"/>`);
  // a twine band with a little sprig tucked in
  out.push(
    `<rect x="180" y="770" width="620" height="14" fill="#c9b48f"/><rect x="180" y="774" width="620" height="3" fill="#e7d7bb"/>`,
  );
  out.push(`<path d="M800 777L840 728" stroke="#c9b48f" stroke-width="14"/>`);
  out.push(
    `<rect x="440" y="752" width="100" height="50" rx="6" fill="#f6f0e4"/><circle cx="490" cy="777" r="10" fill="${LEAF.mid}"/>`,
  );
  return out.join('');
}

/** One candle in a vessel, centred on x, standing on base. */
function candle(
  c: Ctx,
  key: string,
  x: number,
  base: number,
  w: number,
  h: number,
  vessel: string,
  label: boolean,
): string {
  const body = c.id(`ct-body-${key}`);
  const flame = c.id(`ct-flame-${key}`);
  const halo = c.id(`ct-halo-${key}`);
  const top = base - h;
  const ry = w * 0.13;
  let s = defs(
    linear(
      body,
      [
        [0, darken(vessel, 0.2)],
        [0.35, vessel],
        [0.6, lighten(vessel, 0.3)],
        [1, darken(vessel, 0.25)],
      ],
      0,
      0,
      1,
      0,
    ),
    linear(flame, [
      [0, '#fffbe8'],
      [0.5, '#ffd56b'],
      [1, '#f39a3c'],
    ]),
    radial(halo, [
      [0, GLOW.warm, 0.7],
      [0.5, GLOW.warm, 0.25],
      [1, GLOW.warm, 0],
    ]),
  );
  s += `<circle cx="${x}" cy="${top - 40}" r="${f(w * 0.75)}" fill="${url(halo)}"/>`;
  s += `<path d="M${x - w / 2} ${top}V${base - 16}Q${x - w / 2} ${base} ${x - w / 2 + 16} ${base}H${x + w / 2 - 16}Q${x + w / 2} ${base} ${x + w / 2} ${base - 16}V${top}Z" fill="${url(body)}"/>`;
  s += `<ellipse cx="${x}" cy="${top}" rx="${w / 2}" ry="${f(ry)}" fill="${lighten(vessel, 0.25)}"/>`;
  s += `<ellipse cx="${x}" cy="${f(top + 4)}" rx="${w / 2 - 10}" ry="${f(ry - 5)}" fill="#f4ead6"/>`;
  s += `<ellipse cx="${x}" cy="${f(top + 5)}" rx="${f(w * 0.18)}" ry="${f(ry * 0.35)}" fill="#e9d6b0"/>`;
  if (label) {
    s += `<rect x="${x - w / 2}" y="${f(top + h * 0.38)}" width="${w}" height="${f(h * 0.3)}" fill="#f5efe3"/>`;
    s += `<rect x="${x - w / 2}" y="${f(top + h * 0.38)}" width="${w}" height="4" fill="#ffffff" opacity="0.6"/>`;
    s += lavenderSprig(x + w * 0.12, top + h * 0.44, h * 0.2, 250);
    s += `<rect x="${f(x - w * 0.25)}" y="${f(top + h * 0.6)}" width="${f(w * 0.5)}" height="5" rx="2.5" fill="#cfc3b1"/>`;
  } else {
    s += `<path d="M${x - w / 2} ${f(top + h * 0.55)}H${x + w / 2}" stroke="${lighten(vessel, 0.4)}" stroke-width="6" opacity="0.8"/>`;
  }
  s += `<rect x="${f(x - w / 2 + 10)}" y="${f(top + 14)}" width="10" height="${f(h - 40)}" rx="5" fill="#ffffff" opacity="0.25"/>`;
  s += `<path d="M${x} ${top + 4}V${top - 14}" stroke="#3d3430" stroke-width="4" stroke-linecap="round"/>`;
  s += `<path d="M${x} ${top - 80}C${x + 18} ${top - 54} ${x + 16} ${top - 20} ${x} ${top - 12}C${x - 16} ${top - 20} ${x - 18} ${top - 54} ${x} ${top - 80}Z" fill="${url(flame)}"/>`;
  s += `<ellipse cx="${x}" cy="${top - 28}" rx="5" ry="10" fill="#ffffff" opacity="0.8"/>`;
  return s;
}

export function candleTrio(c: Ctx): string {
  const { light, mid, dark } = c.p;
  return (
    candle(c, 'b', 505, 850, 230, 330, mid, true) +
    candle(c, 'a', 295, 880, 200, 250, mix(light, mid, 0.35), false) +
    candle(c, 'c', 712, 880, 180, 190, dark, false)
  );
}

export function sleepMist(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const glass = c.id('sm-glass');
  const cap = c.id('sm-cap');
  const mistW = c.id('sm-mist');
  const mistT = c.id('sm-mist-tint');
  const out: string[] = [
    defs(
      linear(
        glass,
        [
          [0, darken(dark, 0.1)],
          [0.3, mid],
          [0.55, mix(mid, light, 0.6)],
          [1, darken(dark, 0.2)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(
        cap,
        [
          [0, '#d9d6d1'],
          [0.4, '#ffffff'],
          [1, '#bfbab3'],
        ],
        0,
        0,
        1,
        0,
      ),
      softSpot(mistW, '#ffffff', 0.9),
      softSpot(mistT, lighten(light, 0.2), 0.8),
    ),
  ];
  // mist cloud from the nozzle
  out.push(`<ellipse cx="330" cy="340" rx="120" ry="74" fill="${url(mistW)}"/>`);
  out.push(`<ellipse cx="300" cy="330" rx="80" ry="50" fill="${url(mistT)}"/>`);
  for (let i = 0; i < 22; i++) {
    const t = (i * 0.618) % 1;
    const d = 20 + ((i * 37) % 170);
    const a = ((-14 + t * 28 + 180) * Math.PI) / 180;
    const x = 440 + Math.cos(a) * d;
    const y = 346 + Math.sin(a) * d;
    out.push(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(3 + (i % 3) * 1.5)}" fill="${mix(light, '#ffffff', 0.3)}" opacity="${f(0.9 - d / 260)}"/>`,
    );
  }
  // bottle body and shoulders
  out.push(
    `<path d="M410 520Q410 460 460 436H540Q590 460 590 520V846Q590 880 556 880H444Q410 880 410 846Z" fill="${url(glass)}"/>`,
  );
  out.push(`<rect x="424" y="500" width="16" height="330" rx="8" fill="#ffffff" opacity="0.35"/>`);
  // label with a lavender sprig
  out.push(`<rect x="426" y="600" width="148" height="200" rx="10" fill="#f7f2ea"/>`);
  out.push(lavenderSprig(500, 628, 118, 270));
  out.push(
    `<rect x="456" y="762" width="88" height="6" rx="3" fill="#cfc2d9"/><rect x="470" y="776" width="60" height="5" rx="2.5" fill="#ddd4e4"/>`,
  );
  // collar, pump and nozzle
  out.push(`<rect x="454" y="396" width="92" height="44" rx="6" fill="${url(cap)}"/>`);
  out.push(`<path d="M454 412H546M454 426H546" stroke="#b6b0a8" stroke-width="2"/>`);
  out.push(`<rect x="468" y="318" width="64" height="80" rx="10" fill="${url(cap)}"/>`);
  out.push(
    `<rect x="440" y="336" width="34" height="20" rx="6" fill="#e8e4de"/><circle cx="444" cy="346" r="4" fill="#8d8780"/>`,
  );
  out.push(`<rect x="468" y="318" width="64" height="12" rx="6" fill="#ffffff"/>`);
  // sprigs lying at the foot
  out.push(lavenderSprig(820, 812, 230, -18));
  out.push(lavenderSprig(800, 850, 210, -6));
  out.push(`<ellipse cx="650" cy="872" rx="26" ry="8" fill="${LEAF.mid}" transform="rotate(-12 650 872)"/>`);
  return out.join('');
}

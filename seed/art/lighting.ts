/**
 * Lights: the Himalayan salt lamp, moon lamp, sunrise alarm light, rice paper lantern and LED
 * cloud. Each carries its own halo so it reads as switched on.
 */
import { createRandom } from '../random.ts';
import type { Ctx } from './svg.ts';
import { darken, defs, f, GLOW, lighten, linear, linearU, mix, poly, radial, url, WOOD } from './svg.ts';

type Pt = readonly [number, number];

export function saltLamp(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const halo = c.id('sl-halo');
  const inner = c.id('sl-inner');
  const wood = c.id('sl-wood');
  const out: string[] = [
    defs(
      radial(halo, [
        [0, mix(light, GLOW.warm, 0.4), 0.75],
        [0.5, mix(mid, GLOW.warm, 0.3), 0.3],
        [1, mid, 0],
      ]),
      radial(
        inner,
        [
          [0, '#fff4e0', 0.85],
          [0.45, mix(light, '#ffffff', 0.3), 0.35],
          [1, light, 0],
        ],
        0.5,
        0.6,
        0.55,
      ),
      linear(wood, [
        [0, WOOD.light],
        [1, WOOD.mid],
      ]),
    ),
  ];
  out.push(`<ellipse cx="500" cy="540" rx="380" ry="400" fill="${url(halo)}"/>`);
  // wooden block base
  out.push(
    poly(
      [
        [330, 790],
        [360, 766],
        [700, 766],
        [670, 790],
      ],
      lighten(WOOD.light, 0.15),
    ),
  );
  out.push(`<rect x="330" y="790" width="340" height="90" fill="${url(wood)}"/>`);
  out.push(
    poly(
      [
        [670, 790],
        [700, 766],
        [700, 856],
        [670, 880],
      ],
      WOOD.dark,
    ),
  );
  out.push(
    `<path d="M345 815Q500 805 655 818M345 845Q500 838 655 850" stroke="${WOOD.dark}" stroke-width="2" fill="none" opacity="0.35"/>`,
  );
  // the crystal in facets
  const A: Pt = [470, 420];
  const B: Pt = [572, 452];
  const C: Pt = [500, 604];
  const D: Pt = [612, 640];
  const E: Pt = [420, 652];
  const facets: [Pt[], string][] = [
    [[[392, 405], [448, 312], [522, 262], A], mix(light, '#ffffff', 0.25)],
    [[[522, 262], [590, 300], [640, 385], B, A], light],
    [[[338, 525], [392, 405], A, E, [318, 650]], mix(light, mid, 0.5)],
    [[A, B, D, C, E], mix(light, '#fff2dc', 0.35)],
    [[[640, 385], [668, 500], [690, 640], D, B], mid],
    [[[318, 650], E, C, [470, 780], [352, 780]], mix(mid, light, 0.3)],
    [[C, D, [690, 640], [662, 780], [470, 780]], mix(mid, dark, 0.45)],
  ];
  for (const [pts, col] of facets) out.push(poly(pts, col, 3));
  const edges = `M${A[0]} ${A[1]}L${B[0]} ${B[1]}L${D[0]} ${D[1]}L${C[0]} ${C[1]}L${E[0]} ${E[1]}ZM522 262L${A[0]} ${A[1]}M${B[0]} ${B[1]}L640 385M${C[0]} ${C[1]}L470 780`;
  out.push(`<path d="${edges}" stroke="#fff6ea" stroke-width="3" fill="none" opacity="0.45" stroke-linejoin="round"/>`);
  out.push(
    `<path d="M352 780L318 650L338 525L392 405L448 312L522 262L590 300L640 385L668 500L690 640L662 780Z" fill="${url(inner)}"/>`,
  );
  // a few crystalline speckles
  for (const [x, y, r] of [
    [450, 360, 5],
    [600, 560, 4],
    [380, 600, 4],
    [540, 700, 5],
    [630, 430, 3],
  ] as const) {
    out.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" opacity="0.6"/>`);
  }
  return out.join('');
}

export function moonLamp(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const halo = c.id('ml-halo');
  const sphere = c.id('ml-sphere');
  const wood = c.id('ml-wood');
  const pool = c.id('ml-pool');
  const cx = 500;
  const cy = 400;
  const r = 250;
  const out: string[] = [
    defs(
      radial(halo, [
        [0, mix(light, GLOW.warm, 0.5), 0.8],
        [0.55, mix(light, GLOW.warm, 0.5), 0.25],
        [1, light, 0],
      ]),
      radial(
        sphere,
        [
          [0, lighten(light, 0.5)],
          [0.5, light],
          [0.82, mix(light, mid, 0.6)],
          [0.95, mid],
          [1, mix(mid, dark, 0.35)],
        ],
        0.5,
        0.5,
        0.5,
        0.4,
        0.36,
      ),
      linearU(
        wood,
        [
          [0, WOOD.light],
          [1, WOOD.dark],
        ],
        380,
        0,
        620,
        0,
      ),
      radial(pool, [
        [0, GLOW.warm, 0.55],
        [1, GLOW.warm, 0],
      ]),
    ),
  ];
  out.push(`<circle cx="${cx}" cy="${cy}" r="${r + 150}" fill="${url(halo)}"/>`);
  out.push(`<ellipse cx="500" cy="870" rx="260" ry="40" fill="${url(pool)}"/>`);
  // tripod: back leg and back of the cradle ring first
  out.push(`<path d="M500 660L500 800" stroke="${WOOD.dark}" stroke-width="20" stroke-linecap="round"/>`);
  out.push(`<path d="M392 652A108 24 0 0 1 608 652" stroke="${WOOD.dark}" stroke-width="16" fill="none"/>`);
  // the sphere
  out.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${url(sphere)}"/>`);
  // seas: broad soft patches
  const seas: [number, number, number, number, number][] = [
    [-70, -80, 95, 70, -20],
    [40, -20, 70, 55, 15],
    [-20, 70, 80, 48, 10],
    [95, 90, 50, 38, -30],
  ];
  for (const [dx, dy, rx, ry, a] of seas) {
    out.push(
      `<ellipse cx="${cx + dx}" cy="${cy + dy}" rx="${rx}" ry="${ry}" transform="rotate(${a} ${cx + dx} ${cy + dy})" fill="${mid}" opacity="0.32"/>`,
    );
  }
  // craters from a fixed seed
  const rnd = createRandom(20240611);
  for (let i = 0; i < 26; i++) {
    const ang = rnd.next() * Math.PI * 2;
    const dist = Math.sqrt(rnd.next()) * (r - 40);
    const cr = 6 + rnd.next() * (i < 5 ? 26 : 13);
    if (dist + cr > r - 10) continue;
    const x = cx + Math.cos(ang) * dist;
    const y = cy + Math.sin(ang) * dist;
    out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(cr)}" fill="${mix(mid, dark, 0.25)}" opacity="0.45"/>`);
    out.push(
      `<path d="M${f(x - cr * 0.8)} ${f(y + cr * 0.5)}A${f(cr)} ${f(cr)} 0 0 0 ${f(x + cr * 0.9)} ${f(y + cr * 0.35)}" stroke="${lighten(light, 0.5)}" stroke-width="${f(Math.max(2, cr * 0.22))}" fill="none" opacity="0.7" stroke-linecap="round"/>`,
    );
  }
  out.push(
    `<ellipse cx="${cx - 90}" cy="${cy - 110}" rx="70" ry="40" transform="rotate(-35 ${cx - 90} ${cy - 110})" fill="#ffffff" opacity="0.25"/>`,
  );
  // front of the cradle ring and the two front legs
  out.push(`<path d="M392 652A108 24 0 0 0 608 652" stroke="${url(wood)}" stroke-width="18" fill="none"/>`);
  out.push(
    `<path d="M410 668L330 872M590 668L670 872" stroke="${url(wood)}" stroke-width="22" stroke-linecap="round"/>`,
  );
  out.push(`<path d="M412 672L340 858" stroke="#ffffff" stroke-width="5" stroke-linecap="round" opacity="0.3"/>`);
  return out.join('');
}

export function sunriseLight(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const halo = c.id('sr-halo');
  const shell = c.id('sr-shell');
  const face = c.id('sr-face');
  const sun = c.id('sr-sun');
  const clip = c.id('sr-clip');
  const base = c.id('sr-base');
  const land = c.id('sr-land');
  const cx = 500;
  const cy = 440;
  const out: string[] = [
    defs(
      radial(halo, [
        [0, '#ffd9a0', 0.8],
        [0.6, '#ffc59a', 0.25],
        [1, '#ffc59a', 0],
      ]),
      linear(
        shell,
        [
          [0, lighten(light, 0.5)],
          [0.7, light],
          [1, mix(light, mid, 0.6)],
        ],
        0,
        0,
        1,
        1,
      ),
      radial(
        face,
        [
          [0, '#fff7dc'],
          [0.35, '#ffdc8c'],
          [0.7, '#f8a973'],
          [1, '#ee8f86'],
        ],
        0.5,
        0.78,
        0.75,
      ),
      radial(sun, [
        [0, '#ffffff'],
        [0.5, '#fff4c9'],
        [1, '#ffd98a', 0],
      ]),
      linear(base, [
        [0, mix(mid, light, 0.35)],
        [1, darken(mid, 0.15)],
      ]),
      linear(land, [
        [0, mix('#e58e7f', dark, 0.2)],
        [1, mix('#b56a78', dark, 0.4)],
      ]),
      `<clipPath id="${clip}"><circle cx="${cx}" cy="${cy}" r="212"/></clipPath>`,
    ),
  ];
  out.push(`<circle cx="${cx}" cy="${cy}" r="440" fill="${url(halo)}"/>`);
  out.push(`<circle cx="${cx}" cy="${cy}" r="262" fill="${url(shell)}"/>`);
  out.push(`<circle cx="${cx}" cy="${cy}" r="232" fill="${mix(light, mid, 0.4)}"/>`);
  out.push(`<circle cx="${cx}" cy="${cy}" r="212" fill="${url(face)}"/>`);
  out.push(
    `<g clip-path="${url(clip)}">` +
      `<circle cx="${cx}" cy="${cy + 110}" r="150" fill="${url(sun)}"/>` +
      `<circle cx="${cx}" cy="${cy + 110}" r="70" fill="#fffbea"/>` +
      `<path d="M${cx - 230} ${cy + 120}Q${cx - 100} ${cy + 90} ${cx} ${cy + 118}T${cx + 230} ${cy + 106}V${cy + 240}H${cx - 230}Z" fill="${url(land)}"/>` +
      `<path d="M${cx - 230} ${cy + 165}Q${cx - 60} ${cy + 140} ${cx + 230} ${cy + 170}V${cy + 240}H${cx - 230}Z" fill="${mix('#a05c70', dark, 0.4)}" opacity="0.6"/>` +
      `</g>`,
  );
  // soft rays
  for (let i = -3; i <= 3; i++) {
    const a = ((i * 20 - 90) * Math.PI) / 180;
    const x1 = cx + Math.cos(a) * 92;
    const y1 = cy + 110 + Math.sin(a) * 92;
    const x2 = cx + Math.cos(a) * 150;
    const y2 = cy + 110 + Math.sin(a) * 150;
    out.push(
      `<path d="M${f(x1)} ${f(y1)}L${f(x2)} ${f(y2)}" stroke="#fffbea" stroke-width="7" stroke-linecap="round" opacity="0.7"/>`,
    );
  }
  out.push(
    `<path d="M${cx - 200} ${cy - 90}A212 212 0 0 1 ${cx + 40} ${cy - 210}" stroke="#ffffff" stroke-width="10" fill="none" stroke-linecap="round" opacity="0.35"/>`,
  );
  // base with a small display and buttons
  out.push(`<rect x="300" y="660" width="400" height="220" rx="60" fill="${url(base)}"/>`);
  out.push(`<rect x="300" y="660" width="400" height="30" rx="15" fill="#ffffff" opacity="0.25"/>`);
  out.push(`<rect x="390" y="740" width="220" height="74" rx="16" fill="#2f2b29"/>`);
  // a seven-segment clock face showing 06:30 (drawn bars, not text)
  const segments: Record<string, string> = { '0': 'abcdef', '3': 'abcdg', '6': 'acdefg' };
  const digit = (x: number, ch: string): string => {
    const on = segments[ch] ?? '';
    const bars: Record<string, [number, number, number, number]> = {
      a: [x + 4, 754, 22, 6],
      b: [x + 24, 756, 6, 22],
      c: [x + 24, 780, 6, 22],
      d: [x + 4, 798, 22, 6],
      e: [x, 780, 6, 22],
      f: [x, 756, 6, 22],
      g: [x + 4, 776, 22, 6],
    };
    let d = '';
    for (const [k, [bx, by, bw, bh]] of Object.entries(bars)) {
      d += `<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" rx="3" fill="${GLOW.amber}" opacity="${on.includes(k) ? 1 : 0.12}"/>`;
    }
    return d;
  };
  out.push(digit(414, '0') + digit(454, '6') + digit(518, '3') + digit(558, '0'));
  out.push(
    `<circle cx="500" cy="768" r="4" fill="${GLOW.amber}"/><circle cx="500" cy="790" r="4" fill="${GLOW.amber}"/>`,
  );
  out.push(
    `<rect x="440" y="646" width="40" height="16" rx="8" fill="${darken(mid, 0.1)}"/><rect x="520" y="646" width="40" height="16" rx="8" fill="${darken(mid, 0.1)}"/>`,
  );
  return out.join('');
}

export function paperLantern(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const halo = c.id('pl-halo');
  const paper = c.id('pl-paper');
  const cx = 500;
  const cy = 550;
  const rx = 300;
  const ry = 290;
  const out: string[] = [
    defs(
      radial(halo, [
        [0, GLOW.warm, 0.6],
        [0.6, GLOW.warm, 0.18],
        [1, GLOW.warm, 0],
      ]),
      radial(
        paper,
        [
          [0, '#fffaf0'],
          [0.45, mix(lighten(light, 0.4), GLOW.warm, 0.35)],
          [0.85, light],
          [1, mix(light, mid, 0.6)],
        ],
        0.5,
        0.56,
        0.55,
      ),
    ),
  ];
  out.push(`<ellipse cx="${cx}" cy="${cy}" rx="${rx + 180}" ry="${ry + 170}" fill="${url(halo)}"/>`);
  out.push(`<path d="M500 0L500 250" stroke="${darken(dark, 0.2)}" stroke-width="6"/>`);
  out.push(`<rect x="466" y="238" width="68" height="30" rx="8" fill="${darken(dark, 0.1)}"/>`);
  out.push(`<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${url(paper)}"/>`);
  // the wire ribs: shallow curves across the sphere
  let ribs = '';
  for (let k = 1; k < 11; k++) {
    const y = cy - ry + (2 * ry * k) / 11;
    const t = (y - cy) / ry;
    const hw = rx * Math.sqrt(Math.max(0, 1 - t * t));
    const bow = hw * 0.1;
    ribs += `M${f(cx - hw)} ${f(y)}Q${cx} ${f(y + bow * 2)} ${f(cx + hw)} ${f(y)}`;
  }
  out.push(`<path d="${ribs}" stroke="${mix(mid, dark, 0.3)}" stroke-width="3" fill="none" opacity="0.35"/>`);
  // paper fibres and a soft side highlight
  out.push(
    `<ellipse cx="${cx - 150}" cy="${cy - 90}" rx="60" ry="130" transform="rotate(18 ${cx - 150} ${cy - 90})" fill="#ffffff" opacity="0.22"/>`,
  );
  out.push(
    `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="none" stroke="${mix(mid, dark, 0.2)}" stroke-width="4" opacity="0.4"/>`,
  );
  // top and bottom openings
  out.push(`<ellipse cx="${cx}" cy="${cy - ry + 8}" rx="44" ry="9" fill="${mix(mid, dark, 0.4)}"/>`);
  out.push(
    `<ellipse cx="${cx}" cy="${cy + ry - 12}" rx="78" ry="14" fill="${mix(mid, GLOW.amber, 0.4)}"/><ellipse cx="${cx}" cy="${cy + ry - 14}" rx="56" ry="8" fill="${GLOW.core}"/>`,
  );
  return out.join('');
}

export function cloudLight(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const halo = c.id('cl-halo');
  const body = c.id('cl-body');
  const shade = c.id('cl-shade');
  const bulb = c.id('cl-bulb');
  const puffs: [number, number, number][] = [
    [330, 650, 150],
    [480, 560, 185],
    [662, 610, 160],
    [770, 735, 110],
    [232, 752, 100],
  ];
  // the whole outline as one path: same-direction subpaths fill as a union, so gradients and
  // translucent layers apply once across the cloud (and no clip path is needed)
  const outline =
    puffs.map(([x, y, r]) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`).join('') +
    'M250 680A100 100 0 0 0 250 880H770A100 100 0 0 0 770 680Z';
  const out: string[] = [
    defs(
      radial(halo, [
        [0, mix(light, GLOW.warm, 0.35), 0.85],
        [0.55, mix(light, GLOW.warm, 0.3), 0.25],
        [1, light, 0],
      ]),
      linear(body, [
        [0, lighten(light, 0.6)],
        [0.55, light],
        [1, mix(light, mid, 0.75)],
      ]),
      linear(shade, [
        [0, mid, 0],
        [0.6, mid, 0.2],
        [1, mix(mid, dark, 0.3), 0.6],
      ]),
      radial(bulb, [
        [0, '#fffbea', 1],
        [0.35, GLOW.warm, 0.55],
        [1, GLOW.warm, 0],
      ]),
    ),
  ];
  out.push(`<ellipse cx="510" cy="640" rx="450" ry="340" fill="${url(halo)}"/>`);
  // cable trailing to the right
  out.push(
    `<path d="M840 830C890 850 900 884 960 880" stroke="${dark}" stroke-width="8" fill="none" stroke-linecap="round"/>`,
  );
  // a faint rim (the stroke's inner half is covered by the fill) so the cloud holds its shape
  out.push(`<path d="${outline}" fill="none" stroke="${mix(mid, dark, 0.3)}" stroke-width="10" stroke-opacity="0.5"/>`);
  out.push(`<path d="${outline}" fill="${url(body)}"/>`);
  out.push(`<path d="${outline}" fill="${url(shade)}"/>`);
  // LEDs glowing through the fill
  for (const [x, y, r] of [
    [300, 690, 60],
    [470, 600, 70],
    [620, 680, 60],
    [420, 760, 50],
    [720, 760, 45],
    [560, 520, 45],
  ] as const) {
    out.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="${url(bulb)}" opacity="0.85"/>`);
  }
  // soft lit edges along the top of the puffs
  out.push(
    `<path d="M372 500A175 175 0 0 1 580 404" stroke="#ffffff" stroke-width="14" fill="none" stroke-linecap="round" opacity="0.7"/>`,
  );
  out.push(
    `<path d="M215 610A140 140 0 0 1 290 525" stroke="#ffffff" stroke-width="11" fill="none" stroke-linecap="round" opacity="0.6"/>`,
  );
  out.push(
    `<path d="M650 475A150 150 0 0 1 760 510" stroke="#ffffff" stroke-width="11" fill="none" stroke-linecap="round" opacity="0.6"/>`,
  );
  return out.join('');
}

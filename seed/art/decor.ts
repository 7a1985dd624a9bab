/**
 * Decor: the mini zen sand garden, ceramic succulent planters, driftwood wall hanging, river
 * stone bookends and moving sand art frame.
 */
import { createRandom } from '../random.ts';
import type { Ctx } from './svg.ts';
import { darken, defs, f, LEAF, leaf, lighten, linear, linearU, mix, poly, radial, url, WOOD } from './svg.ts';

export function zenGarden(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const sand = c.id('zg-sand');
  const clip = c.id('zg-clip');
  const rim = c.id('zg-rim');
  const front = c.id('zg-front');
  const stone = c.id('zg-stone');
  const sandA = '#f3ead8';
  const sandB = '#e2d3b7';
  const inner = '262,488 738,488 840,738 160,738';
  const out: string[] = [
    defs(
      linearU(
        sand,
        [
          [0, sandB],
          [1, sandA],
        ],
        0,
        488,
        0,
        738,
      ),
      `<clipPath id="${clip}"><polygon points="${inner}"/></clipPath>`,
      linear(rim, [
        [0, lighten(light, 0.2)],
        [1, mix(light, mid, 0.5)],
      ]),
      linear(front, [
        [0, mid],
        [1, darken(dark, 0.1)],
      ]),
      radial(
        stone,
        [
          [0, '#a9a6a1'],
          [0.6, '#6f6c68'],
          [1, '#4a4845'],
        ],
        0.4,
        0.3,
        0.7,
      ),
    ),
  ];
  // tray: front face, rim, sand
  out.push(`<path d="M112 764L888 764L888 852Q888 880 860 880L140 880Q112 880 112 852Z" fill="${url(front)}"/>`);
  out.push(`<path d="M150 790H850" stroke="${darken(dark, 0.2)}" stroke-width="2" opacity="0.3"/>`);
  out.push(
    poly(
      [
        [230, 462],
        [770, 462],
        [888, 764],
        [112, 764],
      ],
      url(rim),
      8,
    ),
  );
  out.push(
    poly(
      [
        [262, 488],
        [738, 488],
        [840, 738],
        [160, 738],
      ],
      mix(dark, mid, 0.4),
    ),
  );
  out.push(`<polygon points="${inner}" fill="${url(sand)}" transform="translate(0 6)"/>`);
  // raked lines, spaced wider toward the front
  let lines = '';
  for (let i = 0; i < 17; i++) {
    const t = i / 16;
    const y = 500 + 236 * (t * 0.7 + t * t * 0.3);
    lines += `M100 ${f(y)}Q300 ${f(y - 5)} 500 ${f(y)}T900 ${f(y)}`;
  }
  let body = `<path d="${lines}" stroke="${sandB}" stroke-width="4" fill="none"/>`;
  body += `<path d="${lines}" transform="translate(0 3)" stroke="#ffffff" stroke-width="2" fill="none" opacity="0.7"/>`;
  // stones with raked rings around them
  const stones: [number, number, number, number][] = [
    [380, 600, 72, 40],
    [610, 560, 46, 27],
    [520, 690, 30, 17],
  ];
  for (const [x, y, rx, ry] of stones) {
    body += `<ellipse cx="${x}" cy="${y}" rx="${rx + 70}" ry="${ry + 40}" fill="${url(sand)}"/>`;
    for (let k = 1; k <= 3; k++) {
      body += `<ellipse cx="${x}" cy="${y}" rx="${rx + k * 20}" ry="${ry + k * 11.5}" fill="none" stroke="${sandB}" stroke-width="4"/>`;
      body += `<ellipse cx="${x}" cy="${y + 2}" rx="${rx + k * 20}" ry="${ry + k * 11.5}" fill="none" stroke="#ffffff" stroke-width="1.5" opacity="0.6"/>`;
    }
  }
  out.push(`<g clip-path="${url(clip)}" transform="translate(0 6)">${body}</g>`);
  for (const [x, y, rx, ry] of stones) {
    out.push(
      `<ellipse cx="${x + 8}" cy="${y + ry * 0.7}" rx="${rx}" ry="${f(ry * 0.6)}" fill="#6b5f4d" opacity="0.3"/>`,
    );
    out.push(
      `<path d="M${x - rx} ${y + 6}C${x - rx} ${y - ry * 1.3} ${x + rx} ${y - ry * 1.5} ${x + rx} ${y + 4}C${x + rx * 0.6} ${y + ry * 0.7} ${x - rx * 0.6} ${y + ry * 0.8} ${x - rx} ${y + 6}Z" fill="${url(stone)}"/>`,
    );
    out.push(
      `<ellipse cx="${f(x - rx * 0.3)}" cy="${f(y - ry * 0.45)}" rx="${f(rx * 0.3)}" ry="${f(ry * 0.16)}" fill="#ffffff" opacity="0.35"/>`,
    );
  }
  // the little rake resting on the sand
  out.push(
    `<g transform="rotate(-26 690 700)"><rect x="690" y="694" width="250" height="12" rx="6" fill="${WOOD.mid}"/>` +
      `<rect x="672" y="650" width="22" height="100" rx="6" fill="${WOOD.dark}"/>` +
      `<path d="M672 658H654M672 674H654M672 690H654M672 706H654M672 722H654M672 738H654" stroke="${WOOD.dark}" stroke-width="6" stroke-linecap="round"/></g>`,
  );
  return out.join('');
}

/** A hexagonal faceted pot centred on x, standing on base. */
function facetedPot(x: number, base: number, w: number, h: number, light: string, mid: string, dark: string): string {
  const tw = w / 2;
  const bw = w * 0.36;
  const top = base - h;
  const d = h * 0.09;
  let s = '';
  s += poly(
    [
      [x - tw, top],
      [x - tw * 0.45, top + d],
      [x - bw * 0.45, base],
      [x - bw, base - d * 0.8],
    ],
    mix(light, mid, 0.4),
    4,
  );
  s += poly(
    [
      [x - tw * 0.45, top + d],
      [x + tw * 0.45, top + d],
      [x + bw * 0.45, base],
      [x - bw * 0.45, base],
    ],
    light,
    4,
  );
  s += poly(
    [
      [x + tw * 0.45, top + d],
      [x + tw, top],
      [x + bw, base - d * 0.8],
      [x + bw * 0.45, base],
    ],
    mix(mid, dark, 0.35),
    4,
  );
  s += poly(
    [
      [x - tw, top],
      [x - tw * 0.45, top - d],
      [x + tw * 0.45, top - d],
      [x + tw, top],
      [x + tw * 0.45, top + d],
      [x - tw * 0.45, top + d],
    ],
    lighten(light, 0.35),
    4,
  );
  s += poly(
    [
      [x - tw * 0.82, top],
      [x - tw * 0.38, top - d * 0.72],
      [x + tw * 0.38, top - d * 0.72],
      [x + tw * 0.82, top],
      [x + tw * 0.38, top + d * 0.72],
      [x - tw * 0.38, top + d * 0.72],
    ],
    '#5a4535',
  );
  return s;
}

export function succulentPlanters(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const out: string[] = [];
  // centre pot, a little behind: echeveria rosette
  const cx = 515;
  const cTop = 850 - 210;
  out.push(facetedPot(cx, 850, 250, 210, light, mid, dark));
  const rosette = (x: number, y: number, layers: [number, number, number, string, string][]): string => {
    let s = '';
    for (const [n, len, width, col, tip] of layers) {
      for (let i = 0; i < n; i++) {
        const a = (i / n) * 360 + (len % 17) * 3;
        const rad = (a * Math.PI) / 180;
        const sy = 0.5;
        const ex = Math.cos(rad) * len;
        const ey = Math.sin(rad) * len * sy;
        const ang = (Math.atan2(ey, ex) * 180) / Math.PI;
        const l = Math.hypot(ex, ey);
        s += leaf(x, y, l, width * (0.7 + 0.3 * Math.abs(Math.cos(rad))), ang, col);
        s += `<circle cx="${f(x + ex * 0.96)}" cy="${f(y + ey * 0.96)}" r="3.5" fill="${tip}"/>`;
      }
    }
    return s;
  };
  const sage = '#8db3a2';
  out.push(
    rosette(cx, cTop - 6, [
      [11, 120, 62, mix(sage, '#6f9a8a', 0.5), '#d79aa0'],
      [9, 86, 54, sage, '#d79aa0'],
      [7, 52, 40, lighten(sage, 0.2), '#e3b0b4'],
      [5, 24, 24, lighten(sage, 0.4), '#e3b0b4'],
    ]),
  );
  // left pot: spiky haworthia
  const lx = 290;
  const lTop = 880 - 150;
  for (const [a, l, w] of [
    [-150, 130, 30],
    [-130, 160, 32],
    [-112, 180, 34],
    [-90, 190, 34],
    [-68, 176, 32],
    [-50, 150, 30],
    [-30, 120, 28],
    [-100, 130, 30],
    [-80, 140, 30],
  ] as const) {
    const col = a % 20 === 0 ? LEAF.mid : LEAF.dark;
    out.push(
      `<g transform="translate(${lx} ${lTop - 4}) rotate(${a})"><path d="M0 -${w / 2}L${l} 0L0 ${w / 2}Z" fill="${col}"/>` +
        `<path d="M${l * 0.2} -6H${l * 0.3}M${l * 0.4} 4H${l * 0.48}M${l * 0.58} -3H${l * 0.64}" stroke="#eef3e6" stroke-width="4" stroke-linecap="round" opacity="0.8"/></g>`,
    );
  }
  out.push(facetedPot(lx, 880, 190, 150, light, mid, dark));
  // right pot: round-leaved jade on short stems
  const rx = 735;
  const rTop = 880 - 165;
  const jade = (x: number, y: number, a: number, r: number): string =>
    `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(r)}" ry="${f(r * 0.7)}" transform="rotate(${a} ${f(x)} ${f(y)})" fill="${LEAF.mid}"/>` +
    `<ellipse cx="${f(x - r * 0.2)}" cy="${f(y - r * 0.2)}" rx="${f(r * 0.45)}" ry="${f(r * 0.22)}" transform="rotate(${a} ${f(x)} ${f(y)})" fill="${LEAF.light}"/>` +
    `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(r)}" ry="${f(r * 0.7)}" transform="rotate(${a} ${f(x)} ${f(y)})" fill="none" stroke="#c98e7a" stroke-width="2.5" opacity="0.6"/>`;
  out.push(
    `<path d="M${rx} ${rTop}Q${rx - 10} ${rTop - 80} ${rx - 60} ${rTop - 150}M${rx} ${rTop}Q${rx + 20} ${rTop - 90} ${rx + 60} ${rTop - 160}M${rx} ${rTop}L${rx + 5} ${rTop - 110}" stroke="#8a7a58" stroke-width="10" fill="none" stroke-linecap="round"/>`,
  );
  for (const [dx, dy, a, r] of [
    [-60, -150, -30, 34],
    [-90, -120, 20, 30],
    [-30, -120, 40, 28],
    [60, -160, 30, 34],
    [90, -130, -20, 30],
    [30, -140, -40, 28],
    [5, -115, 0, 32],
    [-45, -70, -10, 30],
    [50, -80, 15, 30],
    [-10, -170, 10, 26],
  ] as const) {
    out.push(jade(rx + dx, rTop + dy, a, r));
  }
  out.push(facetedPot(rx, 880, 210, 165, light, mid, dark));
  return out.join('');
}

export function driftwoodHanging(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const wood = c.id('dw-wood');
  const drift = mix('#bdb09d', mid, 0.2);
  const out: string[] = [
    defs(
      linear(wood, [
        [0, lighten(drift, 0.35)],
        [0.5, drift],
        [1, darken(drift, 0.3)],
      ]),
    ),
  ];
  const branch =
    'M142 296C170 276 230 274 300 284C380 296 430 278 510 282C600 286 680 298 760 286C800 280 840 276 866 290C872 304 850 316 820 318C740 322 680 320 600 322C520 326 440 318 360 324C280 330 210 326 160 322C138 318 130 306 142 296Z';
  // strands: x, length, pattern seed
  const strands: [number, number][] = [
    [200, 560],
    [270, 640],
    [345, 720],
    [420, 790],
    [500, 830],
    [580, 790],
    [655, 720],
    [730, 640],
    [800, 560],
  ];
  const beadCols = [light, mid, dark, lighten(light, 0.4), mix(mid, light, 0.5)];
  let strings = '';
  let pieces = '';
  const rnd = createRandom(90210);
  strands.forEach(([x, bottom], i) => {
    const y0 = 318;
    strings += `M${x} ${y0}L${x} ${bottom}`;
    let y = y0 + 40 + (i % 3) * 14;
    let k = 0;
    while (y < bottom - 10) {
      const kind = (i + k) % 4;
      if (kind === 1) {
        // a small piece of driftwood threaded through
        const w = 44 + rnd.int(0, 24);
        const a = rnd.int(-12, 12);
        pieces += `<rect x="${x - w / 2}" y="${y - 8}" width="${w}" height="16" rx="8" transform="rotate(${a} ${x} ${y})" fill="${url(wood)}"/>`;
        y += 50;
      } else {
        const r = 9 + rnd.int(0, 6);
        const col = beadCols[(i * 2 + k) % beadCols.length] ?? mid;
        pieces += `<circle cx="${x}" cy="${y}" r="${r}" fill="${col}"/><circle cx="${x - r * 0.35}" cy="${y - r * 0.35}" r="${f(r * 0.3)}" fill="#ffffff" opacity="0.45"/>`;
        y += 28 + r;
      }
      k++;
    }
    // a tiny tassel at the end
    pieces += `<path d="M${x} ${bottom}l-8 30M${x} ${bottom}l0 34M${x} ${bottom}l8 30" stroke="${mix(light, '#f2ece2', 0.5)}" stroke-width="3" stroke-linecap="round"/><circle cx="${x}" cy="${bottom}" r="7" fill="${mix(light, '#f2ece2', 0.5)}"/>`;
  });
  // soft shadow on the wall
  out.push(
    `<g transform="translate(16 22)" opacity="0.08"><path d="${branch}" fill="#3d362f" stroke="#3d362f" stroke-width="14"/><path d="${strings}" stroke="#3d362f" stroke-width="10"/></g>`,
  );
  out.push(
    `<g transform="translate(12 16)" opacity="0.12"><path d="${branch}" fill="#3d362f"/><path d="${strings}" stroke="#3d362f" stroke-width="4"/></g>`,
  );
  // hanging cord and nail
  out.push(
    `<path d="M250 300L500 112L750 300" stroke="#a7977f" stroke-width="5" fill="none" stroke-linejoin="round"/>`,
  );
  out.push(
    `<circle cx="500" cy="110" r="12" fill="#8f8a84"/><circle cx="497" cy="107" r="4" fill="#ffffff" opacity="0.6"/>`,
  );
  out.push(`<path d="${strings}" stroke="#c9bca6" stroke-width="3"/>`);
  out.push(pieces);
  out.push(`<path d="${branch}" fill="${url(wood)}"/>`);
  out.push(
    `<path d="M200 298C300 290 420 300 520 292M560 304C640 306 720 300 820 296M260 312C340 314 400 308 460 310" stroke="${darken(drift, 0.3)}" stroke-width="3" fill="none" opacity="0.5" stroke-linecap="round"/>`,
  );
  out.push(
    `<path d="M180 290C260 282 360 290 440 286" stroke="#ffffff" stroke-width="4" fill="none" opacity="0.4" stroke-linecap="round"/>`,
  );
  // the cord wraps around each end
  out.push(
    `<path d="M244 282L256 320M252 282L264 320M744 282L756 320M752 282L764 320" stroke="#a7977f" stroke-width="5"/>`,
  );
  return out.join('');
}

export function stoneBookends(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const stone = c.id('be-stone');
  const face = c.id('be-face');
  const out: string[] = [
    defs(
      radial(
        stone,
        [
          [0, lighten(light, 0.2)],
          [0.55, mid],
          [1, darken(dark, 0.15)],
        ],
        0.35,
        0.3,
        0.8,
      ),
      linear(
        face,
        [
          [0, lighten(light, 0.35)],
          [1, mix(light, mid, 0.5)],
        ],
        0,
        0,
        1,
        1,
      ),
    ),
  ];
  const speckle = (seed: number, cx: number, cy: number, rx: number, ry: number): string => {
    const rnd = createRandom(seed);
    let s = '';
    for (let i = 0; i < 30; i++) {
      const a = rnd.next() * Math.PI * 2;
      const d = Math.sqrt(rnd.next()) * 0.85;
      const col = i % 3 === 0 ? lighten(light, 0.5) : darken(dark, 0.3);
      s += `<circle cx="${f(cx + Math.cos(a) * rx * d)}" cy="${f(cy + Math.sin(a) * ry * d)}" r="${f(1.5 + rnd.next() * 3)}" fill="${col}" opacity="0.45"/>`;
    }
    return s;
  };
  // left stone with its flat cut face toward the books
  out.push(
    `<path d="M398 880L398 640C380 590 320 566 256 586C176 612 140 716 152 806Q160 880 236 880Z" fill="${url(stone)}"/>`,
  );
  out.push(speckle(11, 270, 740, 110, 130));
  out.push(`<path d="M398 640C416 660 424 760 420 880L398 880Z" fill="${url(face)}"/>`);
  out.push(
    `<path d="M190 660C210 626 250 606 290 602" stroke="#ffffff" stroke-width="10" fill="none" opacity="0.3" stroke-linecap="round"/>`,
  );
  // books held between
  const books: [number, number, string][] = [
    [42, 310, '#c9a58a'],
    [34, 280, '#8ea7a4'],
    [48, 340, '#e6dac5'],
    [36, 296, '#6f7f96'],
    [44, 320, '#a7b08e'],
  ];
  let x = 422;
  for (const [w, h, col] of books) {
    out.push(`<rect x="${x}" y="${880 - h}" width="${w}" height="${h}" rx="4" fill="${col}"/>`);
    out.push(
      `<rect x="${x + 5}" y="${880 - h + 28}" width="${w - 10}" height="10" rx="3" fill="#ffffff" opacity="0.4"/>`,
    );
    out.push(
      `<rect x="${x + 5}" y="${880 - h + 46}" width="${w - 10}" height="4" rx="2" fill="#ffffff" opacity="0.3"/>`,
    );
    out.push(
      `<rect x="${x + 5}" y="${880 - 50}" width="${w - 10}" height="6" rx="3" fill="${darken(col, 0.25)}" opacity="0.5"/>`,
    );
    x += w + 3;
  }
  // right stone, a different pebble, mirrored
  const rx0 = x + 2;
  out.push(
    `<path d="M${rx0} 880L${rx0} 620C${rx0 + 30} 580 ${rx0 + 110} 566 ${rx0 + 170} 596C${rx0 + 240} 636 ${rx0 + 262} 730 ${rx0 + 246} 810Q${rx0 + 236} 880 ${rx0 + 160} 880Z" fill="${url(stone)}"/>`,
  );
  out.push(speckle(29, rx0 + 130, 740, 110, 130));
  out.push(`<path d="M${rx0} 620C${rx0 - 18} 650 ${rx0 - 22} 760 ${rx0 - 20} 880L${rx0} 880Z" fill="${url(face)}"/>`);
  out.push(
    `<path d="M${rx0 + 60} 600C${rx0 + 100} 588 ${rx0 + 150} 594 ${rx0 + 180} 614" stroke="#ffffff" stroke-width="10" fill="none" opacity="0.3" stroke-linecap="round"/>`,
  );
  return out.join('');
}

export function sandArtFrame(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const liquid = c.id('sa-liquid');
  const clip = c.id('sa-clip');
  const ring = c.id('sa-ring');
  const base = c.id('sa-base');
  const cx = 500;
  const cy = 455;
  const r = 300;
  const out: string[] = [
    defs(
      linear(liquid, [
        [0, mix(lighten(light, 0.7), '#eaf3f7', 0.5)],
        [1, mix(lighten(light, 0.4), '#f6efe6', 0.4)],
      ]),
      `<clipPath id="${clip}"><circle cx="${cx}" cy="${cy}" r="${r - 16}"/></clipPath>`,
      linear(
        ring,
        [
          [0, '#5a5a5f'],
          [0.5, '#2e2d31'],
          [1, '#47464b'],
        ],
        0,
        0,
        1,
        1,
      ),
      linear(
        base,
        [
          [0, WOOD.light],
          [0.5, WOOD.mid],
          [1, WOOD.dark],
        ],
        0,
        0,
        1,
        0,
      ),
    ),
  ];
  // layered dunes and ridges, back to front
  const layers: [number, number, number, number, string][] = [
    [520, 80, 0.9, 0.3, mix(light, '#ffffff', 0.3)],
    [560, 120, 1.4, 1.7, mix(light, mid, 0.4)],
    [600, 90, 2.1, 0.6, mid],
    [640, 60, 1.2, 2.6, mix(mid, dark, 0.5)],
    [660, 40, 2.8, 1.1, lighten(light, 0.1)],
    [690, 50, 1.7, 0.2, dark],
    [730, 30, 2.4, 2.0, mix(dark, '#2b2420', 0.3)],
  ];
  let land = `<rect x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" fill="${url(liquid)}"/>`;
  // sand still clinging to the top, drizzling down
  land += `<path d="M${cx - r} ${cy - r}H${cx + r}V${cy - r + 96}Q${cx + 120} ${cy - r + 120} ${cx} ${cy - r + 96}Q${cx - 140} ${cy - r + 74} ${cx - r} ${cy - r + 104}Z" fill="${dark}" opacity="0.85"/>`;
  land += `<path d="M${cx - 150} ${cy - r + 86}L${cx - 150} ${cy + 110}M${cx + 40} ${cy - r + 100}L${cx + 40} ${cy + 80}M${cx + 170} ${cy - r + 104}L${cx + 170} ${cy + 130}" stroke="${dark}" stroke-width="3" opacity="0.55"/>`;
  for (const [y, amp, k1, ph, col] of layers) {
    let d = `M${cx - r} ${y}`;
    const steps = 24;
    for (let i = 1; i <= steps; i++) {
      const t = i / steps;
      const x = cx - r + 2 * r * t;
      const yy =
        y -
        amp * (0.6 * Math.sin(t * Math.PI * k1 + ph) + 0.4 * Math.sin(t * Math.PI * (k1 * 2.3) + ph * 1.7)) -
        amp * 0.3;
      d += `L${f(x)} ${f(yy)}`;
    }
    d += `V${cy + r}H${cx - r}Z`;
    land += `<path d="${d}" fill="${col}" stroke="${lighten(col, 0.25)}" stroke-width="2" stroke-linejoin="round"/>`;
  }
  // air bubbles
  for (const [bx, by, br] of [
    [cx - 60, cy - 120, 10],
    [cx + 100, cy - 60, 7],
    [cx - 200, cy - 30, 6],
    [cx + 210, cy - 150, 8],
    [cx + 20, cy - 10, 5],
  ] as const) {
    land += `<circle cx="${bx}" cy="${by}" r="${br}" fill="#ffffff" opacity="0.75" stroke="#ffffff" stroke-width="1.5"/>`;
  }
  // the frame, then the wooden foot it stands in
  out.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${url(ring)}"/>`);
  out.push(`<g clip-path="${url(clip)}">${land}</g>`);
  out.push(
    `<path d="M${cx - 220} ${cy - 130}A250 250 0 0 1 ${cx - 40} ${cy - 250}" stroke="#ffffff" stroke-width="16" fill="none" stroke-linecap="round" opacity="0.45"/>`,
  );
  out.push(
    `<path d="M${cx + 200} ${cy + 170}A260 260 0 0 1 ${cx + 120} ${cy + 230}" stroke="#ffffff" stroke-width="8" fill="none" stroke-linecap="round" opacity="0.3"/>`,
  );
  out.push(`<circle cx="${cx}" cy="${cy}" r="${r - 8}" fill="none" stroke="#ffffff" stroke-width="2" opacity="0.25"/>`);
  out.push(
    poly(
      [
        [330, 732],
        [670, 732],
        [650, 714],
        [350, 714],
      ],
      lighten(WOOD.light, 0.2),
    ),
  );
  out.push(`<rect x="330" y="732" width="340" height="148" rx="14" fill="${url(base)}"/>`);
  out.push(`<path d="M350 724H650" stroke="${WOOD.dark}" stroke-width="6" stroke-linecap="round" opacity="0.6"/>`);
  out.push(
    `<path d="M350 780Q500 772 650 784M350 830Q500 824 650 836" stroke="${WOOD.dark}" stroke-width="2" fill="none" opacity="0.3"/>`,
  );
  return out.join('');
}

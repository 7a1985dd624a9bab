/**
 * Water features: the desktop waterfall, bamboo, lotus and rock cascade fountains, and the
 * backflow incense waterfall (smoke that flows like water).
 */
import type { Ctx } from './svg.ts';
import {
  darken,
  defs,
  disc,
  f,
  GLOW,
  LEAF,
  leaf,
  lighten,
  linear,
  mix,
  poly,
  radial,
  softSpot,
  url,
  WATER,
} from './svg.ts';

/** A falling sheet of water from (x0..x1, yTop) to yBottom, with a few light streaks. */
function waterSheet(x0: number, x1: number, yTop: number, yBottom: number, fill: string, lip = 0): string {
  const w = x1 - x0;
  const d =
    `M${f(x0)} ${f(yTop)}Q${f(x0 - 2)} ${f(yTop + 14 + lip)} ${f(x0 + 2)} ${f(yTop + 30 + lip)}` +
    `L${f(x0 + 6)} ${f(yBottom)}L${f(x1 - 6)} ${f(yBottom)}L${f(x1 - 2)} ${f(yTop + 30 + lip)}` +
    `Q${f(x1 + 2)} ${f(yTop + 14 + lip)} ${f(x1)} ${f(yTop)}Z`;
  let streaks = '';
  for (let i = 1; i < 4; i++) {
    const x = x0 + (w * i) / 4 + (i % 2 === 0 ? 3 : -3);
    streaks += `<path d="M${f(x)} ${f(yTop + 16)}L${f(x + (i - 2) * 2)} ${f(yBottom - 10)}" stroke="#ffffff" stroke-width="${i === 2 ? 4 : 2.5}" stroke-linecap="round" opacity="${i === 2 ? 0.7 : 0.45}"/>`;
  }
  return `<path d="${d}" fill="${fill}"/>${streaks}`;
}

/** White splash where water lands. */
function splash(cx: number, cy: number, rx: number): string {
  return (
    `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(rx * 0.2)}" fill="#ffffff" opacity="0.75"/>` +
    `<ellipse cx="${f(cx)}" cy="${f(cy + 2)}" rx="${f(rx * 1.7)}" ry="${f(rx * 0.34)}" fill="none" stroke="#ffffff" stroke-width="3" opacity="0.45"/>` +
    `<ellipse cx="${f(cx)}" cy="${f(cy + 4)}" rx="${f(rx * 2.5)}" ry="${f(rx * 0.5)}" fill="none" stroke="#ffffff" stroke-width="2" opacity="0.25"/>`
  );
}

export function desktopFountain(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const top = c.id('df-top');
  const side = c.id('df-side');
  const basin = c.id('df-basin');
  const rim = c.id('df-rim');
  const water = c.id('df-water');
  const sheet = c.id('df-sheet');
  const led = c.id('df-led');
  const col = c.id('df-col');
  const dot = c.id('df-dot');
  const out: string[] = [
    defs(
      linear(top, [
        [0, lighten(light, 0.45)],
        [1, light],
      ]),
      linear(
        side,
        [
          [0, darken(mid, 0.1)],
          [0.45, mix(mid, light, 0.45)],
          [1, darken(mid, 0.35)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(
        basin,
        [
          [0, darken(dark, 0.15)],
          [0.35, mid],
          [0.6, mix(mid, light, 0.3)],
          [1, darken(dark, 0.25)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(rim, [
        [0, lighten(light, 0.3)],
        [1, mid],
      ]),
      linear(water, [
        [0, WATER.dark, 0.9],
        [1, WATER.mid, 0.95],
      ]),
      linear(sheet, [
        [0, WATER.light, 0.95],
        [1, WATER.mid, 0.6],
      ]),
      radial(led, [
        [0, GLOW.core, 1],
        [0.35, GLOW.warm, 0.7],
        [1, GLOW.warm, 0],
      ]),
      linear(
        col,
        [
          [0, darken(dark, 0.25)],
          [0.5, dark],
          [1, darken(dark, 0.4)],
        ],
        0,
        0,
        1,
        0,
      ),
      softSpot(dot, GLOW.core, 1),
    ),
  ];
  // basin
  out.push(`<path d="M190 760L206 840Q214 880 290 880L710 880Q786 880 794 840L810 760Z" fill="${url(basin)}"/>`);
  out.push(`<ellipse cx="500" cy="760" rx="310" ry="62" fill="${url(rim)}"/>`);
  out.push(`<ellipse cx="500" cy="768" rx="282" ry="48" fill="${url(water)}"/>`);
  // column of rock carrying the tiers
  out.push(
    `<path d="M408 778C396 660 420 560 432 470C442 400 456 350 470 330L570 330C586 362 600 420 598 480C606 560 612 660 602 778Z" fill="${url(col)}"/>`,
  );
  // tiers, bottom up
  out.push(disc(505, 610, 215, 44, 50, url(top), url(side)));
  out.push(disc(490, 465, 165, 36, 44, url(top), url(side)));
  out.push(disc(515, 330, 115, 28, 38, url(top), url(side)));
  // a little pool and bubble on the top tier
  out.push(`<ellipse cx="512" cy="330" rx="72" ry="14" fill="${url(water)}"/>`);
  out.push(`<ellipse cx="512" cy="326" rx="18" ry="6" fill="#ffffff" opacity="0.8"/>`);
  // pebbles in the basin
  out.push(
    `<ellipse cx="322" cy="790" rx="44" ry="19" fill="${mix(light, mid, 0.3)}"/><ellipse cx="314" cy="783" rx="20" ry="6" fill="#ffffff" opacity="0.35"/>`,
  );
  out.push(`<ellipse cx="382" cy="806" rx="30" ry="14" fill="${mid}"/>`);
  out.push(
    `<ellipse cx="700" cy="786" rx="38" ry="17" fill="${mix(light, mid, 0.5)}"/><ellipse cx="692" cy="780" rx="16" ry="5" fill="#ffffff" opacity="0.35"/>`,
  );
  out.push(`<ellipse cx="656" cy="806" rx="24" ry="11" fill="${light}"/>`);
  // LED glow under the last fall
  out.push(`<ellipse cx="560" cy="792" rx="170" ry="56" fill="${url(led)}"/>`);
  // falling water
  out.push(waterSheet(478, 552, 352, 492, url(sheet)));
  out.push(splash(516, 492, 40));
  out.push(waterSheet(424, 500, 496, 636, url(sheet)));
  out.push(splash(462, 636, 42));
  out.push(waterSheet(522, 604, 650, 792, url(sheet), 6));
  out.push(splash(563, 792, 46));
  out.push(`<circle cx="560" cy="804" r="18" fill="${url(dot)}"/>`);
  // tiny moss on the lower tier
  out.push(
    `<ellipse cx="648" cy="600" rx="38" ry="10" fill="${LEAF.mid}" opacity="0.85"/><ellipse cx="640" cy="596" rx="20" ry="5" fill="${LEAF.light}"/>`,
  );
  return out.join('');
}

export function bambooFountain(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const bowl = c.id('bf-bowl');
  const rim = c.id('bf-rim');
  const water = c.id('bf-water');
  const cane = c.id('bf-cane');
  const caneEnd = c.id('bf-cane-end');
  const bamboo = { light: '#e0d49a', mid: '#bfae68', dark: '#8d7c41' };
  const out: string[] = [
    defs(
      linear(
        bowl,
        [
          [0, darken(dark, 0.1)],
          [0.3, mid],
          [0.62, mix(mid, light, 0.5)],
          [1, darken(dark, 0.2)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(rim, [
        [0, lighten(light, 0.4)],
        [1, light],
      ]),
      linear(water, [
        [0, WATER.dark],
        [1, WATER.mid],
      ]),
      linear(
        cane,
        [
          [0, bamboo.dark],
          [0.35, bamboo.light],
          [0.7, bamboo.mid],
          [1, bamboo.dark],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(caneEnd, [
        [0, bamboo.light],
        [1, bamboo.mid],
      ]),
    ),
  ];
  // two upright canes behind the bowl
  const post = (x: number, yTop: number, w: number): string => {
    let s = `<rect x="${x}" y="${yTop}" width="${w}" height="${820 - yTop}" rx="10" fill="${url(cane)}"/>`;
    for (let y = yTop + 110; y < 800; y += 130) {
      s += `<rect x="${x - 3}" y="${y}" width="${w + 6}" height="12" rx="6" fill="${bamboo.dark}" opacity="0.8"/>`;
      s += `<rect x="${x - 1}" y="${y + 2}" width="${w + 2}" height="4" rx="2" fill="${bamboo.light}" opacity="0.6"/>`;
    }
    s += `<ellipse cx="${x + w / 2}" cy="${yTop + 4}" rx="${w / 2}" ry="10" fill="${bamboo.dark}"/><ellipse cx="${x + w / 2}" cy="${yTop + 4}" rx="${w / 2 - 7}" ry="6" fill="#5e5128"/>`;
    return s;
  };
  out.push(post(214, 330, 66));
  out.push(post(292, 250, 74));
  // leaves from the nodes
  out.push(leaf(292, 392, 150, 34, -150, LEAF.mid, LEAF.dark));
  out.push(leaf(286, 400, 130, 30, -120, LEAF.light, LEAF.dark));
  out.push(leaf(366, 510, 140, 30, -20, LEAF.mid, LEAF.dark));
  out.push(leaf(214, 560, 120, 28, -170, LEAF.light, LEAF.dark));
  // the spout, a cane lying at an angle, water running out of its cut end
  out.push(
    `<g transform="rotate(22 330 330)"><rect x="300" y="306" width="300" height="50" rx="12" fill="${url(cane)}"/>` +
      `<rect x="440" y="303" width="12" height="56" rx="6" fill="${bamboo.dark}" opacity="0.8"/>` +
      `<ellipse cx="598" cy="331" rx="12" ry="25" fill="${url(caneEnd)}"/><ellipse cx="600" cy="331" rx="7" ry="17" fill="#5e5128"/></g>`,
  );
  out.push(`<rect x="318" y="330" width="30" height="60" rx="8" fill="${bamboo.dark}"/>`);
  // the stream
  out.push(
    `<path d="M592 444C606 470 614 560 612 694" stroke="${WATER.mid}" stroke-width="16" fill="none" stroke-linecap="round" opacity="0.9"/>`,
  );
  out.push(
    `<path d="M592 446C604 470 610 560 609 690" stroke="#ffffff" stroke-width="5" fill="none" stroke-linecap="round" opacity="0.8"/>`,
  );
  // the bowl
  out.push(
    `<path d="M300 690C300 800 380 860 460 872L460 880L720 880L720 872C800 860 880 800 880 690Z" fill="${url(bowl)}"/>`,
  );
  out.push(`<ellipse cx="590" cy="690" rx="290" ry="58" fill="${url(rim)}"/>`);
  out.push(`<ellipse cx="590" cy="696" rx="262" ry="44" fill="${url(water)}"/>`);
  // pebbles in the water
  const pebbles: [number, number, number, string][] = [
    [430, 704, 34, '#d8d3ca'],
    [480, 716, 26, '#9f9a92'],
    [720, 702, 36, '#c6c0b5'],
    [770, 690, 24, '#efebe4'],
    [675, 720, 22, '#8d8780'],
  ];
  for (const [x, y, r, col] of pebbles) {
    out.push(
      `<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${f(r * 0.5)}" fill="${col}"/><ellipse cx="${x - r * 0.25}" cy="${y - r * 0.18}" rx="${f(r * 0.4)}" ry="${f(r * 0.14)}" fill="#ffffff" opacity="0.5"/>`,
    );
  }
  out.push(splash(612, 700, 30));
  return out.join('');
}

export function lotusFountain(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const bowl = c.id('lf-bowl');
  const rim = c.id('lf-rim');
  const water = c.id('lf-water');
  const petal = c.id('lf-petal');
  const petalBack = c.id('lf-petal-b');
  const pad = c.id('lf-pad');
  const bubble = c.id('lf-bubble');
  const pink = mix('#f2b8c6', light, 0.3);
  const out: string[] = [
    defs(
      linear(
        bowl,
        [
          [0, darken(dark, 0.1)],
          [0.3, mid],
          [0.6, mix(mid, light, 0.55)],
          [1, darken(dark, 0.2)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(rim, [
        [0, lighten(light, 0.5)],
        [1, light],
      ]),
      linear(water, [
        [0, WATER.dark],
        [1, WATER.mid],
      ]),
      linear(
        petal,
        [
          [0, lighten(pink, 0.75)],
          [0.6, pink],
          [1, mix(pink, '#c97b95', 0.5)],
        ],
        0,
        0,
        0,
        1,
      ),
      linear(petalBack, [
        [0, lighten(pink, 0.5)],
        [1, mix(pink, '#b86a86', 0.45)],
      ]),
      linear(pad, [
        [0, LEAF.light],
        [1, LEAF.mid],
      ]),
      radial(
        bubble,
        [
          [0, '#ffffff', 0.95],
          [0.7, WATER.light, 0.8],
          [1, WATER.mid, 0.6],
        ],
        0.4,
        0.35,
        0.6,
      ),
    ),
  ];
  // ceramic bowl on a foot
  out.push(`<path d="M380 840L400 880L600 880L620 840Z" fill="${darken(mid, 0.2)}"/>`);
  out.push(`<path d="M160 640C170 760 290 850 500 850C710 850 830 760 840 640Z" fill="${url(bowl)}"/>`);
  out.push(`<ellipse cx="500" cy="640" rx="340" ry="74" fill="${url(rim)}"/>`);
  out.push(`<ellipse cx="500" cy="646" rx="310" ry="58" fill="${url(water)}"/>`);
  // lily pads
  const lilyPad = (cx: number, cy: number, rx: number): string =>
    `<path d="M${cx} ${cy}L${f(cx + rx * 0.95)} ${f(cy - rx * 0.12)}A${rx} ${f(rx * 0.34)} 0 1 1 ${f(cx + rx * 0.7)} ${f(cy - rx * 0.26)}Z" fill="${url(pad)}"/>` +
    `<path d="M${cx} ${cy}L${f(cx - rx * 0.6)} ${f(cy + rx * 0.12)}M${cx} ${cy}L${f(cx + rx * 0.2)} ${f(cy + rx * 0.3)}" stroke="${LEAF.dark}" stroke-width="2" opacity="0.4"/>`;
  out.push(lilyPad(280, 662, 86));
  out.push(lilyPad(720, 652, 76));
  out.push(lilyPad(610, 690, 54));
  // the lotus: back petals, then front petals fanning out of the water
  const petalPath = (len: number, w: number): string =>
    `M0 0C${f(-w)} ${f(-len * 0.25)} ${f(-w * 0.8)} ${f(-len * 0.75)} 0 ${f(-len)}C${f(w * 0.8)} ${f(-len * 0.75)} ${f(w)} ${f(-len * 0.25)} 0 0Z`;
  const cx = 480;
  const cy = 640;
  for (const a of [-62, -30, 0, 30, 62]) {
    out.push(
      `<path d="${petalPath(210, 62)}" transform="translate(${cx} ${cy - 10}) rotate(${a})" fill="${url(petalBack)}"/>`,
    );
  }
  for (const a of [-78, -45, -15, 15, 45, 78]) {
    out.push(
      `<path d="${petalPath(190, 64)}" transform="translate(${cx} ${cy}) rotate(${a})" fill="${url(petal)}" stroke="${lighten(pink, 0.6)}" stroke-width="2"/>`,
    );
  }
  for (const a of [-25, 0, 25]) {
    out.push(
      `<path d="${petalPath(150, 52)}" transform="translate(${cx} ${cy + 6}) rotate(${a})" fill="${url(petal)}" stroke="${lighten(pink, 0.6)}" stroke-width="2"/>`,
    );
  }
  // seed pod with water bubbling over it
  out.push(
    `<ellipse cx="${cx}" cy="${cy - 118}" rx="42" ry="16" fill="#e9cf72"/><ellipse cx="${cx}" cy="${cy - 122}" rx="30" ry="9" fill="#f6e3a0"/>`,
  );
  out.push(
    `<path d="M${cx - 40} ${cy - 128}C${cx - 40} ${cy - 190} ${cx + 40} ${cy - 190} ${cx + 40} ${cy - 128}Z" fill="${url(bubble)}"/>`,
  );
  out.push(
    `<path d="M${cx - 26} ${cy - 160}C${cx - 18} ${cy - 176} ${cx} ${cy - 180} ${cx + 10} ${cy - 176}" stroke="#ffffff" stroke-width="5" fill="none" stroke-linecap="round" opacity="0.9"/>`,
  );
  // droplets arcing out
  for (const [dx, dy, r] of [
    [-70, -168, 7],
    [-96, -140, 5],
    [74, -170, 6],
    [102, -146, 5],
    [0, -214, 6],
  ] as const) {
    out.push(
      `<circle cx="${cx + dx}" cy="${cy + dy}" r="${r}" fill="${WATER.light}" stroke="${WATER.dark}" stroke-width="1.5" opacity="0.9"/>`,
    );
  }
  out.push(
    `<ellipse cx="500" cy="690" rx="230" ry="30" fill="none" stroke="#ffffff" stroke-width="2.5" opacity="0.35"/>`,
  );
  return out.join('');
}

export function rockCascadeFountain(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const pool = c.id('rc-pool');
  const sheet = c.id('rc-sheet');
  const shade = c.id('rc-shade');
  const hi = mix(light, '#ffffff', 0.25);
  const out: string[] = [
    defs(
      linear(pool, [
        [0, WATER.dark],
        [1, WATER.mid],
      ]),
      linear(sheet, [
        [0, WATER.light, 0.95],
        [1, WATER.mid, 0.65],
      ]),
      linear(shade, [
        [0, '#000000', 0],
        [1, '#000000', 0.22],
      ]),
    ),
  ];
  // bottom pool, a ring of rocks around water
  out.push(
    poly(
      [
        [150, 760],
        [200, 700],
        [330, 690],
        [480, 700],
        [650, 688],
        [800, 700],
        [858, 760],
        [840, 860],
        [700, 880],
        [300, 880],
        [165, 860],
      ],
      dark,
      24,
    ),
  );
  out.push(`<ellipse cx="505" cy="752" rx="300" ry="44" fill="${url(pool)}"/>`);
  out.push(
    poly(
      [
        [150, 760],
        [240, 780],
        [380, 800],
        [520, 806],
        [660, 798],
        [780, 780],
        [858, 760],
        [850, 840],
        [700, 872],
        [300, 872],
        [160, 846],
      ],
      mid,
      22,
    ),
  );
  out.push(
    poly(
      [
        [160, 775],
        [280, 790],
        [300, 830],
        [190, 838],
      ],
      mix(mid, light, 0.35),
      16,
    ),
  );
  out.push(
    poly(
      [
        [620, 800],
        [760, 782],
        [840, 770],
        [830, 820],
        [690, 836],
      ],
      mix(mid, light, 0.25),
      16,
    ),
  );
  out.push(
    poly(
      [
        [380, 812],
        [540, 818],
        [520, 856],
        [400, 860],
      ],
      mix(mid, dark, 0.3),
      14,
    ),
  );
  // middle ledge
  out.push(
    poly(
      [
        [250, 690],
        [270, 600],
        [330, 540],
        [470, 520],
        [620, 530],
        [700, 580],
        [720, 690],
      ],
      dark,
      28,
    ),
  );
  out.push(
    poly(
      [
        [262, 620],
        [330, 550],
        [470, 530],
        [610, 540],
        [690, 590],
        [600, 610],
        [440, 600],
        [330, 620],
      ],
      mix(mid, light, 0.2),
      20,
    ),
  );
  out.push(
    poly(
      [
        [270, 650],
        [420, 640],
        [400, 690],
        [262, 690],
      ],
      mid,
      18,
    ),
  );
  out.push(
    poly(
      [
        [560, 640],
        [700, 620],
        [712, 690],
        [590, 690],
      ],
      mix(mid, dark, 0.35),
      18,
    ),
  );
  // top rock
  out.push(
    poly(
      [
        [340, 520],
        [350, 400],
        [400, 300],
        [500, 250],
        [590, 280],
        [640, 360],
        [650, 520],
      ],
      dark,
      30,
    ),
  );
  out.push(
    poly(
      [
        [360, 400],
        [410, 310],
        [500, 262],
        [580, 290],
        [624, 360],
        [520, 372],
        [420, 386],
      ],
      light,
      22,
    ),
  );
  out.push(
    poly(
      [
        [356, 440],
        [470, 420],
        [460, 520],
        [350, 520],
      ],
      mid,
      18,
    ),
  );
  out.push(
    poly(
      [
        [520, 410],
        [640, 400],
        [646, 520],
        [540, 520],
      ],
      mix(mid, dark, 0.4),
      18,
    ),
  );
  out.push(
    poly(
      [
        [420, 318],
        [500, 276],
        [540, 300],
        [470, 330],
      ],
      hi,
      10,
      ' opacity="0.7"',
    ),
  );
  // water: from a notch in the top rock down to the ledge, then down to the pool
  out.push(`<ellipse cx="486" cy="372" rx="40" ry="9" fill="${url(pool)}"/>`);
  out.push(waterSheet(452, 520, 372, 568, url(sheet)));
  out.push(splash(486, 570, 38));
  out.push(`<ellipse cx="500" cy="580" rx="90" ry="16" fill="${url(pool)}" opacity="0.9"/>`);
  out.push(waterSheet(520, 600, 584, 754, url(sheet), 4));
  out.push(splash(560, 756, 46));
  // moss and a small fern
  out.push(
    `<ellipse cx="300" cy="548" rx="44" ry="12" fill="${LEAF.mid}"/><ellipse cx="292" cy="544" rx="24" ry="6" fill="${LEAF.light}"/>`,
  );
  out.push(`<ellipse cx="640" cy="522" rx="34" ry="9" fill="${LEAF.mid}"/>`);
  for (const [a, l] of [
    [-150, 150],
    [-125, 170],
    [-100, 140],
    [-170, 110],
  ] as const) {
    out.push(leaf(700, 700, l, 26, a, a === -125 ? LEAF.light : LEAF.mid, LEAF.dark));
  }
  out.push(`<path d="M150 760L858 760L840 880L160 880Z" fill="${url(shade)}" opacity="0.6"/>`);
  return out.join('');
}

export function backflowIncense(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const body = c.id('bi-body');
  const face = c.id('bi-face');
  const smoke = c.id('bi-smoke');
  const puff = c.id('bi-puff');
  const ember = c.id('bi-ember');
  const out: string[] = [
    defs(
      linear(
        body,
        [
          [0, mix(mid, light, 0.3)],
          [1, darken(dark, 0.15)],
        ],
        0,
        0,
        1,
        1,
      ),
      linear(
        face,
        [
          [0, lighten(light, 0.2)],
          [1, mid],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(smoke, [
        [0, '#ffffff', 0.95],
        [1, '#eef2f5', 0.75],
      ]),
      softSpot(puff, '#ffffff', 0.8),
      radial(ember, [
        [0, '#fff1c9'],
        [0.4, '#ffb45e'],
        [1, '#ff8a3d', 0],
      ]),
    ),
  ];
  // the ceramic mountain
  out.push(
    `<path d="M170 880L170 800Q190 720 270 680Q310 600 330 540Q360 420 430 340Q470 292 520 296Q570 300 600 360Q640 430 680 500Q740 560 790 640Q830 710 830 800L830 880Z" fill="${url(body)}"/>`,
  );
  // light faces
  out.push(
    `<path d="M330 540Q360 420 430 340Q470 292 520 296Q480 360 460 440Q430 520 380 580Q340 610 300 640Q320 600 330 540Z" fill="${url(face)}" opacity="0.85"/>`,
  );
  out.push(
    `<path d="M270 680Q320 680 380 720Q420 760 430 880L170 880L170 800Q190 720 270 680Z" fill="${lighten(mid, 0.25)}" opacity="0.55"/>`,
  );
  out.push(
    `<path d="M680 500Q740 560 790 640Q830 710 830 800L830 880L730 880Q740 760 700 660Q670 580 680 500Z" fill="${darken(dark, 0.2)}" opacity="0.45"/>`,
  );
  // little ceramic lips the smoke spills over: a dark recess with a lit rim below it
  for (const [x0, x1, y] of [
    [452, 562, 420],
    [398, 550, 560],
    [448, 622, 702],
  ] as const) {
    const mx = (x0 + x1) / 2;
    out.push(
      `<path d="M${x0} ${y}Q${mx} ${y - 22} ${x1} ${y}Q${mx} ${y + 16} ${x0} ${y}Z" fill="${darken(dark, 0.4)}" opacity="0.7"/>`,
    );
    out.push(
      `<path d="M${x0} ${y + 2}Q${mx} ${y + 22} ${x1} ${y + 2}" stroke="${lighten(mid, 0.3)}" stroke-width="8" fill="none" stroke-linecap="round"/>`,
    );
  }
  // a shallow basin at the foot
  out.push(`<path d="M360 818Q540 900 720 818L700 862Q540 898 380 862Z" fill="${lighten(mid, 0.15)}"/>`);
  out.push(`<ellipse cx="540" cy="820" rx="180" ry="34" fill="${darken(dark, 0.4)}"/>`);
  out.push(`<path d="M360 820A180 34 0 0 0 720 820" stroke="${lighten(mid, 0.4)}" stroke-width="6" fill="none"/>`);
  // the smoke: a wide soft veil, a softer body and a thin bright core falling ledge to ledge
  const fall =
    'M515 330C505 360 500 390 510 420C530 470 520 520 470 560C430 600 470 650 520 700C560 740 560 790 540 826';
  for (const [w, o] of [
    [84, 0.06],
    [68, 0.07],
    [54, 0.09],
    [42, 0.12],
    [32, 0.15],
    [22, 0.22],
  ] as const) {
    out.push(
      `<path d="${fall}" stroke="#ffffff" stroke-width="${w}" fill="none" stroke-linecap="round" stroke-linejoin="round" opacity="${o}"/>`,
    );
  }
  out.push(
    `<path d="${fall}" stroke="${url(smoke)}" stroke-width="9" fill="none" stroke-linecap="round" opacity="0.9"/>`,
  );
  for (const [x, y, r] of [
    [508, 424, 26],
    [470, 562, 30],
    [522, 702, 30],
    [560, 800, 36],
    [500, 812, 40],
  ] as const) {
    out.push(`<circle cx="${x}" cy="${y}" r="${r * 1.6}" fill="${url(puff)}" opacity="0.7"/>`);
  }
  out.push(`<ellipse cx="540" cy="824" rx="200" ry="42" fill="${url(puff)}"/>`);
  out.push(`<ellipse cx="540" cy="820" rx="120" ry="18" fill="${url(puff)}"/>`);
  // a little pine on the slope
  out.push(
    `<path d="M652 600L620 660L640 660L612 714L692 714L664 660L684 660Z" fill="${LEAF.dark}"/><rect x="648" y="712" width="8" height="22" fill="${darken(dark, 0.4)}"/>`,
  );
  // cone on top with glowing tip and a wisp rising
  out.push(`<circle cx="518" cy="292" r="34" fill="${url(ember)}"/>`);
  out.push(`<path d="M500 310L518 262L536 310Z" fill="#8a6a52"/><circle cx="518" cy="266" r="7" fill="#ffb25e"/>`);
  out.push(
    `<path d="M518 254C508 230 530 214 520 190C512 170 528 156 522 140" stroke="#ffffff" stroke-width="6" fill="none" stroke-linecap="round" opacity="0.6"/>`,
  );
  return out.join('');
}

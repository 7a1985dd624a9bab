/**
 * The surroundings of the lifestyle view (view 2): a desk by a window, a wall shelf, a floor
 * corner, a room with a pendant, or a wall above a sideboard. Each scene returns its backdrop
 * markup and where the object goes; the props are simple shapes tinted toward the backdrop.
 */
import { darken, defs, f, LEAF, leaf, lighten, linear, mix, softSpot, url, WOOD } from './svg.ts';

export type SceneKind = 'desk' | 'shelf' | 'floor' | 'hanging' | 'wall';

export type SceneInput = {
  backdrop: string;
  /** Document-unique id maker. */
  id: (name: string) => string;
  /** A stable number used to vary the layout between products. */
  seed: number;
};

/** Where the object goes: its local ground-centre (500, anchorY) lands at (x, y) with scale s. */
export type Scene = { back: string; front: string; x: number; y: number; maxW: number; maxH: number };

type Tones = { wall: string; wallLow: string; accent: string[] };

function tones(backdrop: string): Tones {
  const wall = mix(lighten(backdrop, 0.15), '#f3eee6', 0.35);
  return {
    wall,
    wallLow: mix(wall, darken(backdrop, 0.3), 0.18),
    accent: [
      mix('#c79f86', backdrop, 0.25),
      mix('#8ea7a4', backdrop, 0.25),
      mix('#e6dac5', backdrop, 0.2),
      mix('#a7b08e', backdrop, 0.25),
      mix('#6f7f96', backdrop, 0.3),
      mix('#d7b56e', backdrop, 0.3),
    ],
  };
}

function pick(list: string[], i: number): string {
  return list[i % list.length] ?? '#cccccc';
}

function at(x: number, y: number, s: number, body: string, flip = false): string {
  return `<g transform="translate(${f(x)} ${f(y)}) scale(${flip ? -s : s} ${s})">${body}</g>`;
}

/** A potted plant standing at (0, 0): a leafy one in a ceramic pot, or a snake plant in terracotta. */
function plant(id: (n: string) => string, variant: number, potColour: string): string {
  const pot = id(`pot${variant}`);
  let s = defs(
    linear(
      pot,
      [
        [0, lighten(potColour, 0.25)],
        [0.6, potColour],
        [1, darken(potColour, 0.25)],
      ],
      0,
      0,
      1,
      0,
    ),
  );
  if (variant % 2 === 0) {
    const leaves: [number, number, number, number][] = [
      [-150, 150, 50, 0],
      [-120, 190, 56, 1],
      [-95, 210, 58, 0],
      [-70, 200, 56, 1],
      [-40, 160, 50, 0],
      [-165, 110, 40, 1],
      [-15, 120, 42, 1],
      [-105, 150, 48, 2],
      [-60, 140, 46, 2],
    ];
    for (const [a, l, w, tone] of leaves) {
      s += leaf(0, -150, l, w, a, tone === 0 ? LEAF.mid : tone === 1 ? LEAF.light : LEAF.dark, LEAF.dark);
    }
  } else {
    const blades: [number, number, number][] = [
      [-40, -330, -14],
      [-8, -400, 0],
      [28, -350, 10],
      [52, -270, 22],
      [-62, -260, -24],
    ];
    for (const [x, h, lean] of blades) {
      s += `<path d="M${x - 16} -150C${x - 20} ${f(-150 + h * 0.5)} ${x + lean - 8} ${f(-150 + h * 0.9)} ${x + lean} ${f(-150 + h)}C${x + lean + 8} ${f(-150 + h * 0.9)} ${x + 20} ${f(-150 + h * 0.5)} ${x + 16} -150Z" fill="${x % 3 === 0 ? LEAF.mid : LEAF.dark}"/>`;
      s += `<path d="M${x} -160L${x + lean * 0.8} ${f(-150 + h * 0.85)}" stroke="${LEAF.light}" stroke-width="4" opacity="0.6"/>`;
    }
  }
  s += `<path d="M-62 0L-80 -150L80 -150L62 0Z" fill="${url(pot)}"/>`;
  s += `<rect x="-88" y="-166" width="176" height="26" rx="8" fill="${lighten(potColour, 0.12)}"/>`;
  return s;
}

/** Three books lying flat, standing at (0, 0), optionally with a mug on top. */
function bookStack(colours: string[], withMug: boolean, mugColour: string): string {
  const books: [number, number, number][] = [
    [250, 40, 0],
    [226, 30, 12],
    [240, 36, -8],
  ];
  let y = 0;
  let s = '';
  books.forEach(([w, h, dx], i) => {
    const col = pick(colours, i);
    y -= h;
    s += `<rect x="${-w / 2 + dx}" y="${y}" width="${w}" height="${h}" rx="5" fill="${col}"/>`;
    s += `<rect x="${w / 2 + dx - 16}" y="${y + 5}" width="12" height="${h - 10}" rx="3" fill="#f6f1e7"/>`;
    s += `<rect x="${-w / 2 + dx}" y="${y}" width="${w}" height="6" rx="3" fill="#ffffff" opacity="0.2"/>`;
  });
  if (withMug) s += `<g transform="translate(-20 ${y})">${mug(mugColour)}</g>`;
  return s;
}

/** A mug with a wisp of steam, standing at (0, 0). */
function mug(colour: string): string {
  return (
    `<path d="M78 -92C122 -92 122 -30 70 -34" stroke="${darken(colour, 0.1)}" stroke-width="16" fill="none" stroke-linecap="round"/>` +
    `<path d="M-70 -120L-64 -10Q-62 0 -50 0L50 0Q62 0 64 -10L70 -120Z" fill="${colour}"/>` +
    `<path d="M-70 -120L-66 -50L-40 -50L-44 -120Z" fill="#ffffff" opacity="0.18"/>` +
    `<ellipse cx="0" cy="-120" rx="70" ry="14" fill="${darken(colour, 0.15)}"/><ellipse cx="0" cy="-118" rx="60" ry="9" fill="#7a5a44"/>` +
    `<path d="M-16 -150C-30 -180 0 -195 -14 -230M18 -150C6 -175 32 -190 20 -222" stroke="#ffffff" stroke-width="7" fill="none" stroke-linecap="round" opacity="0.55"/>`
  );
}

/** Books standing upright with one leaning, at (0, 0). */
function uprightBooks(colours: string[]): string {
  let s = '';
  const books: [number, number][] = [
    [44, 250],
    [36, 220],
    [52, 270],
    [40, 235],
  ];
  let x = -90;
  books.forEach(([w, h], i) => {
    const col = pick(colours, i + 1);
    s += `<rect x="${x}" y="${-h}" width="${w}" height="${h}" rx="4" fill="${col}"/>`;
    s += `<rect x="${x + 6}" y="${-h + 30}" width="${w - 12}" height="10" rx="3" fill="#ffffff" opacity="0.35"/>`;
    s += `<rect x="${x + 6}" y="${-h + 48}" width="${w - 12}" height="5" rx="2" fill="#ffffff" opacity="0.25"/>`;
    x += w + 3;
  });
  s += `<g transform="translate(${x + 6} 0) rotate(14)"><rect x="0" y="-240" width="46" height="240" rx="4" fill="${pick(colours, 0)}"/><rect x="6" y="-210" width="34" height="10" rx="3" fill="#ffffff" opacity="0.35"/></g>`;
  return s;
}

/** A small vase with a few dried stems, at (0, 0). */
function vase(colour: string): string {
  let s = `<path d="M-40 0C-70 -40 -60 -110 -22 -140L-18 -170L18 -170L22 -140C60 -110 70 -40 40 0Z" fill="${colour}"/>`;
  s += `<path d="M-36 -40C-50 -70 -44 -110 -20 -132" stroke="#ffffff" stroke-width="8" fill="none" opacity="0.25" stroke-linecap="round"/>`;
  const stems: [number, number][] = [
    [-28, 320],
    [-8, 380],
    [14, 340],
    [30, 290],
  ];
  for (const [a, l] of stems) {
    const rad = ((a - 90) * Math.PI) / 180;
    const tx = Math.cos(rad) * l;
    const ty = -170 + Math.sin(rad) * l;
    s += `<path d="M0 -160Q${f(tx * 0.3)} ${f(-170 + (ty + 170) * 0.6)} ${f(tx)} ${f(ty)}" stroke="#a58e6a" stroke-width="4" fill="none"/>`;
    for (let k = 0; k < 5; k++) {
      const t = 0.55 + k * 0.1;
      const px = tx * t;
      const py = -170 + (ty + 170) * t;
      s += `<ellipse cx="${f(px + (k % 2 ? 10 : -10))}" cy="${f(py)}" rx="12" ry="5" transform="rotate(${k % 2 ? -30 : 30} ${f(px + (k % 2 ? 10 : -10))} ${f(py)})" fill="#cdbb93"/>`;
    }
  }
  return s;
}

/** A window with soft sky and frame; x, y top-left. */
function windowPane(id: (n: string) => string, x: number, y: number, w: number, h: number, backdrop: string): string {
  const sky = id('sky');
  let s = defs(
    linear(sky, [
      [0, mix('#cfe3ee', backdrop, 0.25)],
      [1, mix('#fbf4e6', backdrop, 0.2)],
    ]),
  );
  s += `<rect x="${x - 16}" y="${y - 16}" width="${w + 32}" height="${h + 32}" rx="6" fill="#fbf8f3"/>`;
  s += `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${url(sky)}"/>`;
  // distant hills through the glass
  s += `<path d="M${x} ${y + h * 0.78}Q${x + w * 0.3} ${y + h * 0.62} ${x + w * 0.55} ${y + h * 0.74}T${x + w} ${y + h * 0.7}V${y + h}H${x}Z" fill="${mix('#b9cbbf', backdrop, 0.3)}" opacity="0.8"/>`;
  s += `<rect x="${x + w / 2 - 7}" y="${y}" width="14" height="${h}" fill="#fbf8f3"/>`;
  s += `<rect x="${x}" y="${y + h * 0.45 - 7}" width="${w}" height="14" fill="#fbf8f3"/>`;
  s += `<rect x="${x - 30}" y="${y + h + 10}" width="${w + 60}" height="22" rx="5" fill="#f1ebe1"/>`;
  return s;
}

/** A framed picture of soft hills, x, y top-left. */
function picture(x: number, y: number, w: number, h: number, accent: string[], backdrop: string): string {
  let s = `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="4" fill="${darken(WOOD.mid, 0.1)}"/>`;
  s += `<rect x="${x + 14}" y="${y + 14}" width="${w - 28}" height="${h - 28}" fill="#fbf8f2"/>`;
  const ix = x + 40;
  const iy = y + 40;
  const iw = w - 80;
  const ih = h - 80;
  s += `<rect x="${ix}" y="${iy}" width="${iw}" height="${ih}" fill="${mix('#f1e6d6', backdrop, 0.3)}"/>`;
  s += `<circle cx="${f(ix + iw * 0.68)}" cy="${f(iy + ih * 0.38)}" r="${f(iw * 0.13)}" fill="${pick(accent, 5)}" opacity="0.8"/>`;
  s += `<path d="M${ix} ${f(iy + ih * 0.75)}Q${f(ix + iw * 0.3)} ${f(iy + ih * 0.45)} ${f(ix + iw * 0.6)} ${f(iy + ih * 0.7)}T${ix + iw} ${f(iy + ih * 0.6)}V${iy + ih}H${ix}Z" fill="${pick(accent, 1)}"/>`;
  s += `<path d="M${ix} ${f(iy + ih * 0.88)}Q${f(ix + iw * 0.45)} ${f(iy + ih * 0.7)} ${ix + iw} ${f(iy + ih * 0.86)}V${iy + ih}H${ix}Z" fill="${pick(accent, 4)}" opacity="0.8"/>`;
  return s;
}

/** A light beam falling from a window, as a soft translucent quadrilateral. */
function beam(id: (n: string) => string, name: string, pts: string): string {
  const g = id(`beam-${name}`);
  return `${defs(
    linear(
      g,
      [
        [0, '#fffaf0', 0.55],
        [1, '#fffaf0', 0],
      ],
      0,
      0,
      1,
      1,
    ),
  )}<polygon points="${pts}" fill="${url(g)}"/>`;
}

function wallGradient(id: (n: string) => string, t: Tones, h: number): string {
  const g = id('wall');
  return `${defs(
    linear(g, [
      [0, lighten(t.wall, 0.2)],
      [1, t.wall],
    ]),
  )}<rect width="1200" height="${h}" fill="${url(g)}"/>`;
}

function woodSurface(id: (n: string) => string, y: number, h: number, tone: string): string {
  const g = id('desk');
  let s = defs(
    linear(g, [
      [0, lighten(tone, 0.12)],
      [1, darken(tone, 0.08)],
    ]),
  );
  s += `<rect y="${y}" width="1200" height="${h}" fill="${url(g)}"/>`;
  for (let i = 0; i < 6; i++) {
    const yy = y + 30 + i * (h / 6);
    s += `<path d="M0 ${f(yy)}Q300 ${f(yy - 8)} 600 ${f(yy + 4)}T1200 ${f(yy - 2)}" stroke="${darken(tone, 0.12)}" stroke-width="2" fill="none" opacity="0.35"/>`;
  }
  s += `<rect y="${y}" width="1200" height="8" fill="#ffffff" opacity="0.25"/>`;
  return s;
}

export function buildScene(kind: SceneKind, input: SceneInput): Scene {
  const { backdrop, id, seed } = input;
  const t = tones(backdrop);
  const flip = (seed & 1) === 1;
  const variant = (seed >> 1) & 3;
  // mirror the whole room for half the products so the lifestyle shots do not all look alike
  const mirror = (body: string): string => (flip ? `<g transform="translate(1200 0) scale(-1 1)">${body}</g>` : body);
  const shadow = id('prop-shadow');
  const propShadow = (x: number, y: number, rx: number): string =>
    `<ellipse cx="${f(x)}" cy="${f(y + 4)}" rx="${f(rx * 1.1)}" ry="${f(rx * 0.14)}" fill="${url(shadow)}"/>`;
  const shelfShade = id('shelf-shade');
  let back = defs(
    softSpot(shadow, darken(backdrop, 0.6), 0.35),
    linear(shelfShade, [
      [0, darken(t.wall, 0.35), 0.3],
      [1, darken(t.wall, 0.35), 0],
    ]),
  );
  let front = '';

  if (kind === 'desk') {
    const deskY = 800;
    const ground = 960;
    back += wallGradient(id, t, deskY);
    let room = windowPane(id, 90, 90, 330, 430, backdrop);
    room += beam(id, 'w', `420,110 740,170 980,${deskY} 560,${deskY}`);
    room += woodSurface(id, deskY, 400, mix(WOOD.light, backdrop, 0.2));
    room += beam(id, 'd', `560,${deskY} 980,${deskY} 1200,1200 700,1200`);
    // props: left a stack of books (with a mug sometimes), right a plant
    const withMug = variant !== 2;
    room +=
      propShadow(215, ground, 150) + at(215, ground, 0.95, bookStack(t.accent, withMug, pick(t.accent, variant + 2)));
    room +=
      propShadow(1030, ground, 90) + at(1030, ground, 0.95, plant(id, variant, variant % 2 ? '#c98f6b' : '#f1ede6'));
    back += mirror(room);
    return { back, front, x: 620, y: ground, maxW: 520, maxH: 640 };
  }

  if (kind === 'shelf') {
    const shelfY = 820;
    back += wallGradient(id, t, 1200);
    let room = picture(80, 150, 300, 380, t.accent, backdrop);
    room += beam(id, 'w', `0,0 500,0 1200,700 1200,1000`);
    // shelf plank with its shadow on the wall
    room += `<rect x="40" y="${shelfY + 48}" width="1120" height="44" fill="${url(shelfShade)}"/>`;
    room += `<rect x="40" y="${shelfY}" width="1120" height="18" fill="${lighten(WOOD.mid, 0.2)}"/>`;
    room += `<rect x="40" y="${shelfY + 18}" width="1120" height="30" fill="${WOOD.mid}"/>`;
    room += `<rect x="40" y="${shelfY + 46}" width="1120" height="4" fill="${WOOD.dark}"/>`;
    room += `<rect y="${shelfY + 50}" width="1200" height="${1200 - shelfY - 50}" fill="${t.wallLow}" opacity="0.35"/>`;
    room += propShadow(1010, shelfY + 4, 110) + at(1000, shelfY + 4, 1, uprightBooks(t.accent));
    room += `<g transform="translate(200 ${shelfY + 4}) scale(0.7)">${plant(id, variant + 1, '#eeeae3')}</g>`;
    back += mirror(room);
    return { back, front, x: 610, y: shelfY + 6, maxW: 540, maxH: 620 };
  }

  if (kind === 'floor') {
    const floorY = 700;
    back += wallGradient(id, t, floorY);
    let room = windowPane(id, 120, 60, 380, 520, backdrop);
    room += `<rect y="${floorY - 30}" width="1200" height="30" fill="#f7f3ec"/>`;
    room += woodSurface(id, floorY, 500, mix(WOOD.light, backdrop, 0.3));
    for (let i = 1; i < 8; i++) {
      const x = -200 + i * 200;
      room += `<path d="M${x} ${floorY}L${x * 1.4 - 240} 1200" stroke="${darken(WOOD.light, 0.15)}" stroke-width="2" opacity="0.4"/>`;
    }
    room += beam(id, 'f', `500,${floorY} 800,${floorY} 1150,1200 650,1200`);
    room += `<ellipse cx="640" cy="1010" rx="520" ry="150" fill="${mix(t.wall, backdrop, 0.5)}"/>`;
    room += `<ellipse cx="640" cy="1010" rx="480" ry="130" fill="none" stroke="#ffffff" stroke-width="4" opacity="0.4" stroke-dasharray="2 12"/>`;
    // tall floor plant in a basket
    room += `<g transform="translate(1040 ${floorY + 120}) scale(1.45)">${plant(id, variant + 2, '#c8ab86')}</g>`;
    back += mirror(room);
    return { back, front, x: 600, y: 1010, maxW: 720, maxH: 640 };
  }

  if (kind === 'hanging') {
    const topY = 960;
    back += wallGradient(id, t, 1200);
    let room = windowPane(id, 80, 280, 300, 420, backdrop);
    room += beam(id, 'w', `380,300 700,420 900,${topY} 420,${topY}`);
    // a low console with a vase and books
    room += `<rect x="520" y="${topY}" width="640" height="26" rx="4" fill="${lighten(WOOD.mid, 0.15)}"/>`;
    room += `<rect x="540" y="${topY + 26}" width="600" height="214" fill="${WOOD.mid}"/>`;
    room += `<rect x="560" y="${topY + 44}" width="270" height="160" rx="4" fill="${darken(WOOD.mid, 0.1)}"/><rect x="850" y="${topY + 44}" width="270" height="160" rx="4" fill="${darken(WOOD.mid, 0.1)}"/>`;
    room += `<circle cx="810" cy="${topY + 124}" r="6" fill="${WOOD.light}"/><circle cx="870" cy="${topY + 124}" r="6" fill="${WOOD.light}"/>`;
    room += propShadow(1075, topY, 70) + at(1075, topY, 0.8, vase(pick(t.accent, 2)));
    room += propShadow(800, topY, 130) + at(800, topY, 0.8, bookStack(t.accent, false, '#ffffff'));
    back += mirror(room);
    return { back, front, x: 600, y: 0, maxW: 640, maxH: 860 };
  }

  // wall: the object hangs on the wall above a sideboard
  const topY = 900;
  back += wallGradient(id, t, 1200);
  let room = beam(id, 'w', `0,0 420,0 1200,760 1200,1100`);
  room += `<rect x="120" y="${topY}" width="960" height="30" rx="4" fill="${lighten(WOOD.mid, 0.15)}"/>`;
  room += `<rect x="140" y="${topY + 30}" width="920" height="270" fill="${WOOD.mid}"/>`;
  for (let i = 0; i < 3; i++) {
    room += `<rect x="${160 + i * 300}" y="${topY + 50}" width="280" height="200" rx="4" fill="${darken(WOOD.mid, 0.08)}"/><rect x="${290 + i * 300}" y="${topY + 70}" width="24" height="6" rx="3" fill="${WOOD.light}"/>`;
  }
  room += propShadow(260, topY, 70) + at(260, topY, 0.75, vase(pick(t.accent, 0)));
  room += `<g transform="translate(940 ${topY}) scale(0.6)">${plant(id, variant + 1, '#eeeae3')}</g>`;
  room += propShadow(560, topY, 90) + at(600, topY, 0.6, bookStack(t.accent, variant % 2 === 0, pick(t.accent, 3)));
  back += mirror(room);
  front += '';
  return { back, front, x: 600, y: 430, maxW: 760, maxH: 720 };
}

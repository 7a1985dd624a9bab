/**
 * Product illustrations for the demo catalogue, drawn in code as SVG (the seed step renders them
 * to WebP with sharp). Each art kind has one drawing of the object in a 1000x1000 local box;
 * this module frames it three ways:
 *
 * - view 0, hero: the object centred on a soft gradient of the backdrop tint, with a gentle shadow;
 * - view 1, detail: a closer crop on the object's most telling part, on a deeper backdrop shade
 *   with a tabletop plane;
 * - view 2, lifestyle: the object in a small room scene (desk by a window, shelf, floor corner,
 *   pendant over a console, or wall above a sideboard) with a plant, books, a mug...
 *
 * Views 3 and up cycle. The output is deterministic: same input, same SVG.
 */
import type { ArtKind, SeedArt } from '../types.ts';
import { candleTrio, essentialOils, oilDiffuser, sleepMist } from './aroma.ts';
import { driftwoodHanging, sandArtFrame, stoneBookends, succulentPlanters, zenGarden } from './decor.ts';
import { backflowIncense, bambooFountain, desktopFountain, lotusFountain, rockCascadeFountain } from './fountains.ts';
import { giftBox, sandTimer, wirelessCharger } from './gifts.ts';
import { cloudLight, moonLamp, paperLantern, saltLamp, sunriseLight } from './lighting.ts';
import type { SceneKind } from './scene.ts';
import { buildScene } from './scene.ts';
import type { Ctx, DrawFn } from './svg.ts';
import { darken, defs, f, GROUND, hash, lighten, linear, mix, radial, softSpot, url } from './svg.ts';
import { acupressureMat, eyePillow, meditationCushion, singingBowl } from './wellness.ts';

/** How the object is held: standing on a surface, hanging from a cord, or hung on a wall. */
type Mount = 'ground' | 'hang' | 'wall';

type ArtEntry = {
  draw: DrawFn;
  /** The drawing's bounds in its local box: x0, y0, x1, y1. */
  box: readonly [number, number, number, number];
  mount: Mount;
  /** Half-width of the contact shadow on the ground, in local units (ground mount only). */
  shadow: number;
  /** Detail view: the local point to centre, and the zoom relative to the hero framing. */
  focus: readonly [number, number, number];
  scene: SceneKind;
  /** Share of the scene's free space the object takes, to keep real-world sizes plausible. */
  fill: number;
};

const ART: Record<ArtKind, ArtEntry> = {
  'desktop-fountain': {
    draw: desktopFountain,
    box: [190, 290, 810, 880],
    mount: 'ground',
    shadow: 330,
    focus: [520, 520, 1.7],
    scene: 'desk',
    fill: 0.9,
  },
  'wireless-charger': {
    draw: wirelessCharger,
    box: [120, 420, 880, 880],
    mount: 'ground',
    shadow: 330,
    focus: [470, 640, 1.6],
    scene: 'desk',
    fill: 0.9,
  },
  'bamboo-fountain': {
    draw: bambooFountain,
    box: [170, 240, 880, 880],
    mount: 'ground',
    shadow: 330,
    focus: [560, 520, 1.6],
    scene: 'desk',
    fill: 0.95,
  },
  'lotus-fountain': {
    draw: lotusFountain,
    box: [160, 400, 840, 880],
    mount: 'ground',
    shadow: 300,
    focus: [480, 560, 1.7],
    scene: 'desk',
    fill: 0.9,
  },
  'rock-cascade-fountain': {
    draw: rockCascadeFountain,
    box: [140, 245, 865, 880],
    mount: 'ground',
    shadow: 350,
    focus: [500, 500, 1.6],
    scene: 'floor',
    fill: 0.75,
  },
  'zen-garden': {
    draw: zenGarden,
    box: [110, 440, 890, 880],
    mount: 'ground',
    shadow: 380,
    focus: [520, 600, 1.7],
    scene: 'desk',
    fill: 0.9,
  },
  'oil-diffuser': {
    draw: oilDiffuser,
    box: [280, 120, 720, 880],
    mount: 'ground',
    shadow: 200,
    focus: [500, 460, 1.6],
    scene: 'shelf',
    fill: 0.85,
  },
  'essential-oils': {
    draw: essentialOils,
    box: [170, 400, 830, 880],
    mount: 'ground',
    shadow: 330,
    focus: [430, 560, 1.8],
    scene: 'shelf',
    fill: 0.95,
  },
  'candle-trio': {
    draw: candleTrio,
    box: [160, 380, 850, 880],
    mount: 'ground',
    shadow: 340,
    focus: [520, 520, 1.7],
    scene: 'shelf',
    fill: 0.9,
  },
  'salt-lamp': {
    draw: saltLamp,
    box: [300, 230, 700, 880],
    mount: 'ground',
    shadow: 200,
    focus: [500, 480, 1.6],
    scene: 'shelf',
    fill: 0.9,
  },
  'moon-lamp': {
    draw: moonLamp,
    box: [220, 140, 780, 880],
    mount: 'ground',
    shadow: 180,
    focus: [500, 400, 1.7],
    scene: 'desk',
    fill: 0.9,
  },
  'sunrise-light': {
    draw: sunriseLight,
    box: [230, 200, 770, 880],
    mount: 'ground',
    shadow: 230,
    focus: [500, 470, 1.7],
    scene: 'desk',
    fill: 0.85,
  },
  'paper-lantern': {
    draw: paperLantern,
    box: [200, 0, 800, 860],
    mount: 'hang',
    shadow: 0,
    focus: [500, 560, 1.5],
    scene: 'hanging',
    fill: 1,
  },
  'eye-pillow': {
    draw: eyePillow,
    box: [140, 600, 890, 880],
    mount: 'ground',
    shadow: 340,
    focus: [450, 730, 1.9],
    scene: 'desk',
    fill: 0.95,
  },
  'acupressure-mat': {
    draw: acupressureMat,
    box: [100, 360, 900, 880],
    mount: 'ground',
    shadow: 390,
    focus: [460, 560, 2],
    scene: 'floor',
    fill: 1,
  },
  'meditation-cushion': {
    draw: meditationCushion,
    box: [100, 420, 900, 880],
    mount: 'ground',
    shadow: 390,
    focus: [500, 560, 1.6],
    scene: 'floor',
    fill: 0.9,
  },
  'singing-bowl': {
    draw: singingBowl,
    box: [200, 360, 900, 880],
    mount: 'ground',
    shadow: 330,
    focus: [500, 620, 1.6],
    scene: 'shelf',
    fill: 0.9,
  },
  'succulent-planters': {
    draw: succulentPlanters,
    box: [150, 330, 870, 880],
    mount: 'ground',
    shadow: 340,
    focus: [500, 560, 1.7],
    scene: 'shelf',
    fill: 0.9,
  },
  'driftwood-hanging': {
    draw: driftwoodHanging,
    box: [120, 90, 880, 880],
    mount: 'wall',
    shadow: 0,
    focus: [500, 420, 1.6],
    scene: 'wall',
    fill: 0.95,
  },
  'stone-bookends': {
    draw: stoneBookends,
    box: [120, 400, 880, 880],
    mount: 'ground',
    shadow: 380,
    focus: [330, 640, 1.6],
    scene: 'shelf',
    fill: 1,
  },
  'backflow-incense': {
    draw: backflowIncense,
    box: [170, 130, 830, 880],
    mount: 'ground',
    shadow: 330,
    focus: [510, 470, 1.7],
    scene: 'shelf',
    fill: 0.9,
  },
  'sleep-mist': {
    draw: sleepMist,
    box: [240, 260, 860, 880],
    mount: 'ground',
    shadow: 260,
    focus: [500, 480, 1.7],
    scene: 'desk',
    fill: 0.9,
  },
  'gift-box': {
    draw: giftBox,
    box: [200, 290, 830, 880],
    mount: 'ground',
    shadow: 330,
    focus: [540, 440, 1.7],
    scene: 'desk',
    fill: 0.9,
  },
  'sand-timer': {
    draw: sandTimer,
    box: [280, 180, 720, 880],
    mount: 'ground',
    shadow: 210,
    focus: [500, 540, 1.8],
    scene: 'desk',
    fill: 0.85,
  },
  'cloud-light': {
    draw: cloudLight,
    box: [140, 370, 860, 880],
    mount: 'ground',
    shadow: 330,
    focus: [500, 600, 1.6],
    scene: 'shelf',
    fill: 0.9,
  },
  'sand-art-frame': {
    draw: sandArtFrame,
    box: [180, 120, 820, 880],
    mount: 'ground',
    shadow: 220,
    focus: [500, 540, 1.6],
    scene: 'desk',
    fill: 0.95,
  },
};

/** The hero framing: scale and offset that fit the object's bounds into the picture. */
function heroFrame(e: ArtEntry): { s: number; tx: number; ty: number } {
  const [x0, y0, x1, y1] = e.box;
  const w = x1 - x0;
  const h = y1 - y0;
  if (e.mount === 'hang') {
    const s = Math.min(900 / w, 1060 / h);
    return { s, tx: 600 - ((x0 + x1) / 2) * s, ty: -y0 * s };
  }
  const s = Math.min(900 / w, 860 / h, 1.3);
  return { s, tx: 600 - ((x0 + x1) / 2) * s, ty: 615 - ((y0 + y1) / 2) * s };
}

/** A soft contact shadow made of two radial fades (no blur filter, which is slow to render). */
function groundShadow(e: ArtEntry, colour: string, id: (name: string) => string, strength: number): string {
  if (e.mount !== 'ground' || e.shadow <= 0) return '';
  const r = e.shadow;
  const wide = id('shadow-wide');
  const tight = id('shadow-tight');
  return (
    defs(softSpot(wide, colour, Math.min(1, 0.42 * strength)), softSpot(tight, colour, Math.min(1, 0.5 * strength))) +
    `<ellipse cx="500" cy="${GROUND + 6}" rx="${f(r * 1.12)}" ry="${f(r * 0.16)}" fill="${url(wide)}"/>` +
    `<ellipse cx="500" cy="${GROUND + 3}" rx="${f(r * 0.78)}" ry="${f(r * 0.06)}" fill="${url(tight)}"/>`
  );
}

function place(tx: number, ty: number, s: number, body: string): string {
  return `<g transform="translate(${f(tx)} ${f(ty)}) scale(${Math.round(s * 1000) / 1000})">${body}</g>`;
}

export function renderProductArt(art: SeedArt, view: number, size = 1200): string {
  const v = Number.isFinite(view) ? ((Math.trunc(view) % 3) + 3) % 3 : 0;
  const entry = ART[art.kind];
  const [light, mid, dark] = art.palette;
  const backdrop = art.backdrop;
  const prefix = `a${hash(`${art.kind}|${art.palette.join(',')}|${backdrop}|${v}`).toString(36)}`;
  const ctx: Ctx = { p: { light, mid, dark }, id: (name) => `${prefix}-${name}` };
  const id = (name: string): string => `${prefix}-v-${name}`;
  const object = entry.draw(ctx);
  const hero = heroFrame(entry);
  let body: string;

  if (v === 0) {
    const bg = id('bg');
    const glow = id('glow');
    body =
      defs(
        linear(bg, [
          [0, lighten(backdrop, 0.5)],
          [0.62, backdrop],
          [1, darken(backdrop, 0.07)],
        ]),
        radial(
          glow,
          [
            [0, '#ffffff', 0.65],
            [1, '#ffffff', 0],
          ],
          0.5,
          0.5,
          0.5,
        ),
      ) +
      `<rect width="1200" height="1200" fill="${url(bg)}"/>` +
      `<ellipse cx="600" cy="580" rx="470" ry="430" fill="${url(glow)}"/>` +
      place(hero.tx, hero.ty, hero.s, groundShadow(entry, darken(backdrop, 0.55), id, 1) + object);
  } else if (v === 1) {
    const [fx, fy, zoom] = entry.focus;
    const z = hero.s * zoom;
    const tx = 600 - fx * z;
    const ty = 600 - fy * z;
    const base = darken(mix(backdrop, mid, 0.22), 0.06);
    const bg = id('bg');
    const table = id('table');
    let scene = `${defs(
      linear(
        bg,
        [
          [0, lighten(base, 0.42)],
          [0.5, lighten(base, 0.12)],
          [1, darken(base, 0.06)],
        ],
        0,
        0,
        1,
        1,
      ),
      linear(table, [
        [0, lighten(base, 0.45)],
        [1, lighten(base, 0.2)],
      ]),
    )}<rect width="1200" height="1200" fill="${url(bg)}"/>`;
    if (entry.mount === 'ground') {
      const groundY = ty + GROUND * z;
      const horizon = groundY - Math.min(110, entry.shadow * 0.22 * z);
      if (horizon < 1200) {
        scene += `<rect y="${f(horizon)}" width="1200" height="${f(Math.max(0, 1200 - horizon))}" fill="${url(table)}"/>`;
        scene += `<rect y="${f(horizon)}" width="1200" height="3" fill="#ffffff" opacity="0.5"/>`;
      }
    }
    body = scene + place(tx, ty, z, groundShadow(entry, darken(base, 0.5), id, 1.2) + object);
  } else {
    const sc = buildScene(entry.scene, { backdrop, id: (n) => id(`s-${n}`), seed: hash(art.kind) });
    const [x0, y0, x1, y1] = entry.box;
    const s = Math.min(sc.maxW / (x1 - x0), sc.maxH / (y1 - y0)) * entry.fill;
    const tx = sc.x - ((x0 + x1) / 2) * s;
    const ty =
      entry.mount === 'ground'
        ? sc.y - GROUND * s
        : entry.mount === 'hang'
          ? sc.y - y0 * s
          : sc.y - ((y0 + y1) / 2) * s;
    body = sc.back + place(tx, ty, s, groundShadow(entry, darken(backdrop, 0.6), id, 1.1) + object) + sc.front;
  }

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 1200 1200">${body}</svg>`;
}

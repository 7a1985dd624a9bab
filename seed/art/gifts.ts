/**
 * Gifts and desk pieces: the zen stone wireless charger, the calm gift box and the glass desk
 * sand timer.
 */
import { createRandom } from '../random.ts';
import type { Ctx } from './svg.ts';
import { darken, defs, disc, f, lighten, linear, mix, poly, radial, url, WOOD } from './svg.ts';

export function wirelessCharger(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const top = c.id('wc-top');
  const side = c.id('wc-side');
  const glow = c.id('wc-glow');
  const peb = c.id('wc-peb');
  const led = '#bfe8ff';
  const out: string[] = [
    defs(
      radial(
        top,
        [
          [0, lighten(light, 0.35)],
          [0.6, light],
          [1, mix(light, mid, 0.7)],
        ],
        0.4,
        0.35,
        0.7,
      ),
      linear(
        side,
        [
          [0, darken(mid, 0.1)],
          [0.4, mid],
          [0.65, mix(mid, light, 0.3)],
          [1, darken(dark, 0.1)],
        ],
        0,
        0,
        1,
        0,
      ),
      radial(glow, [
        [0, led, 0.7],
        [0.6, led, 0.25],
        [1, led, 0],
      ]),
      radial(
        peb,
        [
          [0, lighten(mid, 0.3)],
          [1, dark],
        ],
        0.4,
        0.3,
        0.8,
      ),
    ),
  ];
  // cable curling away behind
  out.push(
    `<path d="M700 640C760 600 820 590 860 620C900 650 880 700 840 720" stroke="${darken(dark, 0.2)}" stroke-width="14" fill="none" stroke-linecap="round"/>`,
  );
  // the stone pad
  out.push(disc(470, 710, 300, 108, 62, url(top), url(side)));
  // stone speckle
  const rnd = createRandom(4242);
  let sp = '';
  for (let i = 0; i < 60; i++) {
    const a = rnd.next() * Math.PI * 2;
    const d = Math.sqrt(rnd.next()) * 0.9;
    const col = i % 4 === 0 ? lighten(light, 0.6) : mix(mid, dark, 0.5);
    sp += `<circle cx="${f(470 + Math.cos(a) * 300 * d)}" cy="${f(710 + Math.sin(a) * 108 * d)}" r="${f(1.5 + rnd.next() * 2.5)}" fill="${col}" opacity="0.45"/>`;
  }
  out.push(sp);
  // glowing charging ring and mark
  out.push(`<ellipse cx="470" cy="708" rx="190" ry="70" fill="${url(glow)}"/>`);
  out.push(
    `<ellipse cx="470" cy="708" rx="124" ry="44" fill="none" stroke="${led}" stroke-width="28" opacity="0.25"/>`,
  );
  out.push(
    `<ellipse cx="470" cy="708" rx="124" ry="44" fill="none" stroke="${led}" stroke-width="15" opacity="0.45"/>`,
  );
  out.push(`<ellipse cx="470" cy="708" rx="124" ry="44" fill="none" stroke="#f2fbff" stroke-width="5"/>`);
  out.push(
    poly(
      [
        [482, 672],
        [446, 714],
        [472, 714],
        [458, 746],
        [498, 700],
        [472, 700],
      ],
      '#f2fbff',
      3,
    ),
  );
  out.push(
    `<path d="M220 660C290 620 380 604 470 604" stroke="#ffffff" stroke-width="10" fill="none" stroke-linecap="round" opacity="0.35"/>`,
  );
  // a small stack of pebbles beside it
  const pebbles: [number, number, number, number][] = [
    [810, 846, 74, 32],
    [800, 792, 56, 26],
    [812, 746, 40, 20],
  ];
  for (const [x, y, rx, ry] of pebbles) {
    out.push(
      `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${url(peb)}"/><ellipse cx="${x - rx * 0.3}" cy="${y - ry * 0.45}" rx="${f(rx * 0.35)}" ry="${f(ry * 0.18)}" fill="#ffffff" opacity="0.35"/>`,
    );
  }
  return out.join('');
}

export function giftBox(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const front = c.id('gb-front');
  const lidFront = c.id('gb-lid');
  const ribbon = mix(light, '#ffffff', 0.35);
  const ribbonShade = mix(ribbon, mid, 0.3);
  const out: string[] = [
    defs(
      linear(front, [
        [0, mix(mid, light, 0.2)],
        [1, darken(mid, 0.1)],
      ]),
      linear(lidFront, [
        [0, mix(mid, light, 0.35)],
        [1, mid],
      ]),
    ),
  ];
  // oblique projection: depth runs up and to the right
  const dx = 100;
  const dy = -64;
  const P = (x0: number, y0: number, w: number, u: number, v: number): [number, number] => [
    x0 + w * u + dx * v,
    y0 + dy * v,
  ];
  // body
  out.push(
    poly(
      [
        [640, 600],
        [740, 536],
        [740, 816],
        [640, 880],
      ],
      darken(mid, 0.3),
    ),
  );
  out.push(`<rect x="240" y="580" width="400" height="300" fill="${url(front)}"/>`);
  // ribbon on the body
  out.push(
    `<rect x="420" y="580" width="44" height="300" fill="${ribbon}"/><rect x="420" y="580" width="8" height="300" fill="#ffffff" opacity="0.35"/>`,
  );
  out.push(
    poly(
      [
        [640 + dx * 0.42, 600 + dy * 0.42],
        [640 + dx * 0.56, 600 + dy * 0.56],
        [640 + dx * 0.56, 880 + dy * 0.56],
        [640 + dx * 0.42, 880 + dy * 0.42],
      ],
      ribbonShade,
    ),
  );
  // lid: right side, front, top
  const lx = 226;
  const ly = 520;
  const lw = 428;
  out.push(
    poly(
      [
        [lx + lw, ly],
        [lx + lw + dx, ly + dy],
        [lx + lw + dx, ly + 84 + dy],
        [lx + lw, ly + 84],
      ],
      darken(mid, 0.22),
    ),
  );
  out.push(`<rect x="${lx}" y="${ly}" width="${lw}" height="84" fill="${url(lidFront)}"/>`);
  out.push(`<rect x="${lx}" y="${ly + 78}" width="${lw}" height="8" fill="${darken(dark, 0.2)}" opacity="0.35"/>`);
  out.push(
    poly([P(lx, ly, lw, 0, 0), P(lx, ly, lw, 0, 1), P(lx, ly, lw, 1, 1), P(lx, ly, lw, 1, 0)], lighten(mid, 0.25)),
  );
  // ribbon over the lid
  const band = (u0: number, u1: number, v0: number, v1: number, col: string): string =>
    poly([P(lx, ly, lw, u0, v0), P(lx, ly, lw, u0, v1), P(lx, ly, lw, u1, v1), P(lx, ly, lw, u1, v0)], col);
  out.push(band(0.455, 0.555, 0, 1, ribbon));
  out.push(band(0, 1, 0.42, 0.56, ribbon));
  out.push(
    `<rect x="420" y="${ly}" width="44" height="84" fill="${ribbon}"/><rect x="420" y="${ly}" width="8" height="84" fill="#ffffff" opacity="0.35"/>`,
  );
  out.push(
    poly(
      [
        [lx + lw + dx * 0.42, ly + dy * 0.42],
        [lx + lw + dx * 0.56, ly + dy * 0.56],
        [lx + lw + dx * 0.56, ly + 84 + dy * 0.56],
        [lx + lw + dx * 0.42, ly + 84 + dy * 0.42],
      ],
      ribbonShade,
    ),
  );
  // eucalyptus sprig tucked under the bow
  const [bx, by] = P(lx, ly, lw, 0.505, 0.49);
  out.push(
    `<path d="M${bx} ${by}Q${bx - 90} ${by - 50} ${bx - 170} ${by - 40}" stroke="#7d9670" stroke-width="4" fill="none"/>`,
  );
  for (const [t, side] of [
    [0.3, 1],
    [0.5, -1],
    [0.7, 1],
    [0.9, -1],
    [1, 1],
  ] as const) {
    const px = bx - 170 * t;
    const py = by - 50 * t + 10 * t * t;
    out.push(
      `<ellipse cx="${f(px)}" cy="${f(py + side * 14)}" rx="20" ry="14" fill="${side > 0 ? '#9db5a3' : '#85a08d'}"/>`,
    );
  }
  // the bow: two loops, two tails, a knot
  out.push(
    `<path d="M${bx} ${by}C${bx - 40} ${by + 60} ${bx - 20} ${by + 110} ${bx - 44} ${by + 150}L${bx - 20} ${by + 140}L${bx - 6} ${by + 160}C${bx + 2} ${by + 110} ${bx + 6} ${by + 60} ${bx} ${by}Z" fill="${ribbonShade}"/>`,
  );
  out.push(
    `<path d="M${bx} ${by}C${bx + 40} ${by + 50} ${bx + 50} ${by + 100} ${bx + 80} ${by + 130}L${bx + 54} ${by + 130}L${bx + 46} ${by + 150}C${bx + 30} ${by + 100} ${bx + 10} ${by + 50} ${bx} ${by}Z" fill="${ribbon}"/>`,
  );
  out.push(
    `<path d="M${bx} ${by}C${bx - 60} ${by - 120} ${bx - 170} ${by - 70} ${bx - 110} ${by - 10}C${bx - 80} ${by + 10} ${bx - 30} ${by + 6} ${bx} ${by}Z" fill="${ribbon}" stroke="${ribbonShade}" stroke-width="4"/>`,
  );
  out.push(
    `<path d="M${bx} ${by}C${bx + 50} ${by - 130} ${bx + 170} ${by - 90} ${bx + 120} ${by - 20}C${bx + 90} ${by + 10} ${bx + 30} ${by + 6} ${bx} ${by}Z" fill="${ribbon}" stroke="${ribbonShade}" stroke-width="4"/>`,
  );
  out.push(
    `<path d="M${bx - 20} ${by - 10}C${bx - 60} ${by - 50} ${bx - 100} ${by - 50} ${bx - 110} ${by - 30}" stroke="${ribbonShade}" stroke-width="4" fill="none" opacity="0.6"/>`,
  );
  out.push(
    `<ellipse cx="${bx}" cy="${by}" rx="26" ry="20" fill="${ribbonShade}"/><ellipse cx="${bx - 6}" cy="${by - 6}" rx="10" ry="6" fill="#ffffff" opacity="0.5"/>`,
  );
  // a kraft tag on a string
  out.push(
    `<path d="M${bx + 20} ${by + 10}C${bx + 80} ${by + 60} ${bx + 120} ${by + 110} ${bx + 110} ${by + 170}" stroke="#b39b77" stroke-width="3" fill="none"/>`,
  );
  out.push(
    `<g transform="rotate(-12 ${bx + 110} ${by + 170})"><path d="M${bx + 90} ${by + 170}L${bx + 110} ${by + 156}L${bx + 130} ${by + 170}V${by + 250}H${bx + 90}Z" fill="#dcc4a0"/><circle cx="${bx + 110}" cy="${by + 172}" r="5" fill="#b39b77"/></g>`,
  );
  return out.join('');
}

export function sandTimer(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const wood = c.id('st-wood');
  const woodTop = c.id('st-wood-top');
  const post = c.id('st-post');
  const glass = c.id('st-glass');
  const sand = c.id('st-sand');
  const clip = c.id('st-clip');
  const frame = mix(WOOD.mid, dark, 0.45);
  const glassPath =
    'M404 300C404 430 484 488 492 545C484 602 404 660 404 788L596 788C596 660 516 602 508 545C516 488 596 430 596 300Z';
  const out: string[] = [
    defs(
      linear(
        wood,
        [
          [0, darken(frame, 0.2)],
          [0.4, frame],
          [0.65, lighten(frame, 0.2)],
          [1, darken(frame, 0.3)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(woodTop, [
        [0, lighten(frame, 0.35)],
        [1, lighten(frame, 0.1)],
      ]),
      linear(
        post,
        [
          [0, darken(frame, 0.2)],
          [0.45, lighten(frame, 0.25)],
          [1, darken(frame, 0.3)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(
        glass,
        [
          [0, '#ffffff', 0.35],
          [0.3, '#ffffff', 0.1],
          [0.7, '#ffffff', 0.05],
          [1, '#ffffff', 0.3],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(sand, [
        [0, lighten(light, 0.2)],
        [1, mid],
      ]),
      `<clipPath id="${clip}"><path d="${glassPath}"/></clipPath>`,
    ),
  ];
  const turned = (x: number, w: number): string =>
    `<rect x="${x - w / 2}" y="270" width="${w}" height="520" rx="${w / 2}" fill="${url(post)}"/>` +
    `<ellipse cx="${x}" cy="330" rx="${w * 0.85}" ry="16" fill="${url(post)}"/><ellipse cx="${x}" cy="545" rx="${w * 0.95}" ry="22" fill="${url(post)}"/><ellipse cx="${x}" cy="760" rx="${w * 0.85}" ry="16" fill="${url(post)}"/>`;
  // back post, bottom plate
  out.push(disc(500, 790, 210, 42, 48, url(woodTop), url(wood)));
  out.push(turned(500, 22));
  // glass with sand
  out.push(
    `<g clip-path="${url(clip)}">` +
      `<path d="M380 420Q500 445 620 420V560H380Z" fill="${url(sand)}"/>` +
      `<path d="M380 420Q500 445 620 420" stroke="${lighten(light, 0.4)}" stroke-width="4" fill="none"/>` +
      `<path d="M380 790V742Q450 690 500 662Q550 690 620 742V790Z" fill="${url(sand)}"/>` +
      `<path d="M500 540V666" stroke="${mid}" stroke-width="5"/>` +
      `</g>`,
  );
  out.push(`<path d="${glassPath}" fill="${url(glass)}" stroke="#ffffff" stroke-width="4" stroke-opacity="0.7"/>`);
  out.push(
    `<path d="M424 330C424 420 462 470 478 510M424 770C424 700 450 650 470 610" stroke="#ffffff" stroke-width="8" fill="none" stroke-linecap="round" opacity="0.6"/>`,
  );
  // top plate and the two front posts
  out.push(turned(322, 30));
  out.push(turned(678, 30));
  out.push(disc(500, 232, 210, 42, 46, url(woodTop), url(wood)));
  out.push(
    `<ellipse cx="500" cy="232" rx="180" ry="32" fill="none" stroke="${lighten(frame, 0.4)}" stroke-width="3" opacity="0.5"/>`,
  );
  out.push(
    `<ellipse cx="500" cy="790" rx="180" ry="32" fill="none" stroke="${lighten(frame, 0.4)}" stroke-width="3" opacity="0.5"/>`,
  );
  return out.join('');
}

/**
 * Wellness: the weighted eye pillow, acupressure mat and pillow, buckwheat meditation cushion
 * and Tibetan singing bowl.
 */
import type { Ctx } from './svg.ts';
import { darken, defs, disc, f, f2, LEAF, lavenderSprig, lighten, linear, mix, radial, url, WOOD } from './svg.ts';

export function eyePillow(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const top = c.id('ep-top');
  const dots = c.id('ep-dots');
  const shape =
    'M180 730C180 668 250 650 500 672C750 650 820 668 820 730C820 800 750 820 560 810Q500 802 440 810C250 820 180 800 180 730Z';
  const out: string[] = [
    defs(
      linear(
        top,
        [
          [0, lighten(light, 0.35)],
          [0.5, mix(light, mid, 0.4)],
          [1, mid],
        ],
        0,
        0,
        0.3,
        1,
      ),
      `<clipPath id="${dots}"><path d="${shape}"/></clipPath>`,
    ),
  ];
  // thickness, then the top
  out.push(`<path d="${shape}" transform="translate(0 46)" fill="${darken(dark, 0.1)}"/>`);
  out.push(`<path d="${shape}" transform="translate(0 26)" fill="${dark}"/>`);
  out.push(`<path d="${shape}" fill="${url(top)}"/>`);
  // a printed dot pattern (explicit dots, clipped: cheaper to render than an SVG pattern)
  let print = '';
  for (let y = 660; y < 830; y += 22) {
    const odd = Math.round((y - 660) / 22) % 2 === 1;
    for (let x = odd ? 196 : 182; x < 830; x += 30) print += `<circle cx="${x}" cy="${y}" r="2.6"/>`;
  }
  out.push(`<g clip-path="${url(dots)}" fill="${lighten(light, 0.6)}" opacity="0.55">${print}</g>`);
  // the stitched seam
  out.push(
    `<path d="${shape}" transform="translate(500 735) scale(0.94 0.84) translate(-500 -735)" fill="none" stroke="${lighten(light, 0.55)}" stroke-width="3.5" stroke-dasharray="12 9" stroke-linecap="round"/>`,
  );
  // puffiness: soft highlights on each side of the centre seam
  out.push(`<ellipse cx="340" cy="708" rx="120" ry="30" transform="rotate(-4 340 708)" fill="#ffffff" opacity="0.3"/>`);
  out.push(`<ellipse cx="660" cy="706" rx="110" ry="26" transform="rotate(4 660 706)" fill="#ffffff" opacity="0.22"/>`);
  out.push(
    `<path d="M500 676Q498 740 500 804" stroke="${darken(mid, 0.15)}" stroke-width="6" fill="none" opacity="0.3" stroke-linecap="round"/>`,
  );
  // a small fabric loop on the end
  out.push(
    `<path d="M814 712C866 702 874 752 822 756" stroke="${mix(mid, dark, 0.5)}" stroke-width="14" fill="none" stroke-linecap="round"/>`,
  );
  // lavender: one sprig resting across the pillow, one in front
  out.push(lavenderSprig(700, 700, 300, -14));
  out.push(lavenderSprig(880, 864, 250, -4));
  out.push(`<ellipse cx="660" cy="872" rx="24" ry="8" transform="rotate(-10 660 872)" fill="${LEAF.mid}"/>`);
  return out.join('');
}

export function acupressureMat(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const mat = c.id('am-mat');
  const roll = c.id('am-roll');
  const rose = c.id('am-rose');
  const spike = lighten(light, 0.2);
  // one rosette of spikes, drawn once and reused
  let rosette = `<circle r="24" fill="${mix(light, mid, 0.3)}"/>`;
  for (let i = 0; i < 10; i++) {
    const a = (i * Math.PI * 2) / 10;
    rosette += `<circle cx="${f(Math.cos(a) * 17)}" cy="${f(Math.sin(a) * 17)}" r="4.6" fill="${spike}"/>`;
  }
  rosette += `<circle r="6.5" fill="${spike}"/>`;
  const out: string[] = [
    defs(
      linear(mat, [
        [0, mix(mid, dark, 0.3)],
        [1, mid],
      ]),
      linear(roll, [
        [0, lighten(mid, 0.2)],
        [0.45, mid],
        [1, darken(dark, 0.1)],
      ]),
      `<g id="${rose}">${rosette}</g>`,
    ),
  ];
  const yb = 440;
  const yf = 842;
  const edge = (yN: number): [number, number] => [280 + (130 - 280) * yN, 720 + (870 - 720) * yN];
  // mat body: front thickness then top
  out.push(
    `<path d="M130 ${yf}L870 ${yf}L870 ${yf + 30}Q870 ${yf + 38} 860 ${yf + 38}L140 ${yf + 38}Q130 ${yf + 38} 130 ${yf + 30}Z" fill="${darken(dark, 0.1)}"/>`,
  );
  out.push(
    `<path d="M280 ${yb}L720 ${yb}L870 ${yf}L130 ${yf}Z" fill="${url(mat)}" stroke="${mix(mid, dark, 0.3)}" stroke-width="10" stroke-linejoin="round"/>`,
  );
  out.push(
    `<path d="M280 ${yb}L720 ${yb}L870 ${yf}L130 ${yf}Z" fill="none" stroke="${lighten(mid, 0.3)}" stroke-width="3" stroke-dasharray="10 8" transform="translate(500 ${(yb + yf) / 2}) scale(0.97 0.96) translate(-500 ${-(yb + yf) / 2})"/>`,
  );
  // rows of rosettes in perspective: world rows equally spaced, screen spacing grows toward us
  const rows = 9;
  const cols = 8;
  for (let r = 0; r < rows; r++) {
    const u = (r + 0.5) / rows;
    const z = 1.7 - 0.7 * u;
    const yN = (1 / z - 1 / 1.7) / (1 - 1 / 1.7);
    const y = yb + (yf - yb) * yN;
    const [l, rt] = edge(yN);
    const s = (1 / z) * 1.22;
    const step = (rt - l) / cols;
    for (let k = 0; k < cols; k++) {
      const x = l + step * (k + 0.5);
      out.push(`<use href="#${rose}" transform="translate(${f(x)} ${f(y)}) scale(${f2(s)} ${f2(s * 0.58)})"/>`);
    }
  }
  // the pillow roll lying at the back
  out.push(`<rect x="300" y="350" width="400" height="120" rx="56" fill="${url(roll)}"/>`);
  out.push(
    `<ellipse cx="700" cy="410" rx="34" ry="60" fill="${darken(mid, 0.25)}"/><ellipse cx="700" cy="410" rx="20" ry="40" fill="${darken(mid, 0.1)}"/>`,
  );
  for (let r = 0; r < 3; r++) {
    const y = 372 + r * 36;
    const sy = r === 1 ? 0.55 : 0.38;
    for (let k = 0; k < 8; k++) {
      out.push(`<use href="#${rose}" transform="translate(${332 + k * 46} ${y}) scale(0.8 ${sy})"/>`);
    }
  }
  out.push(`<rect x="320" y="360" width="360" height="16" rx="8" fill="#ffffff" opacity="0.18"/>`);
  return out.join('');
}

export function meditationCushion(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const top = c.id('mc-top');
  const side = c.id('mc-side');
  const mat = c.id('mc-mat');
  const cx = 500;
  const out: string[] = [
    defs(
      radial(
        top,
        [
          [0, lighten(light, 0.3)],
          [0.7, light],
          [1, mix(light, mid, 0.5)],
        ],
        0.45,
        0.4,
        0.6,
      ),
      linear(
        side,
        [
          [0, darken(mid, 0.15)],
          [0.35, mid],
          [0.6, mix(mid, light, 0.35)],
          [1, darken(dark, 0.1)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(mat, [
        [0, mix(dark, mid, 0.3)],
        [1, darken(dark, 0.1)],
      ]),
    ),
  ];
  // zabuton mat underneath
  out.push(
    `<path d="M120 790Q110 850 160 856L840 856Q890 850 880 790Z" transform="translate(0 22)" fill="${darken(dark, 0.3)}"/>`,
  );
  out.push(
    `<path d="M170 716L830 716Q878 718 884 760L890 812Q894 852 850 852L150 852Q106 852 110 812L116 760Q122 718 170 716Z" fill="${url(mat)}"/>`,
  );
  out.push(
    `<path d="M172 730L828 730Q866 732 870 764L876 808Q878 836 846 838L154 838Q122 836 124 808L130 764Q134 732 172 730Z" fill="none" stroke="${lighten(dark, 0.3)}" stroke-width="3" stroke-dasharray="9 8"/>`,
  );
  // the zafu: bulging pleated side, then the top
  const topY = 540;
  const botY = 690;
  out.push(
    `<path d="M230 ${topY}C214 600 222 660 248 ${botY}A252 82 0 0 0 752 ${botY}C778 660 786 600 770 ${topY}Z" fill="${url(side)}"/>`,
  );
  let pleats = '';
  for (let i = 1; i < 12; i++) {
    const th = (i / 12) * Math.PI;
    const x1 = cx + Math.cos(th) * 270;
    const y1 = topY + Math.sin(th) * 86;
    const x2 = cx + Math.cos(th) * 252;
    const y2 = botY + Math.sin(th) * 82;
    const bulge = Math.cos(th) * 22;
    pleats += `M${f(x1)} ${f(y1)}Q${f((x1 + x2) / 2 + bulge)} ${f((y1 + y2) / 2)} ${f(x2)} ${f(y2)}`;
  }
  out.push(`<path d="${pleats}" stroke="${darken(dark, 0.2)}" stroke-width="4" fill="none" opacity="0.32"/>`);
  out.push(
    `<path d="M${cx - 270} ${topY}A270 86 0 0 0 ${cx + 270} ${topY}" stroke="${lighten(mid, 0.25)}" stroke-width="8" fill="none"/>`,
  );
  out.push(`<ellipse cx="${cx}" cy="${topY}" rx="270" ry="86" fill="${url(top)}"/>`);
  // pleats gathering to the centre button
  let rays = '';
  for (let i = 0; i < 16; i++) {
    const th = (i / 16) * Math.PI * 2;
    rays += `M${f(cx + Math.cos(th) * 40)} ${f(topY + Math.sin(th) * 13)}L${f(cx + Math.cos(th) * 190)} ${f(topY + Math.sin(th) * 60)}`;
  }
  out.push(
    `<path d="${rays}" stroke="${mix(light, mid, 0.6)}" stroke-width="3" fill="none" opacity="0.5" stroke-linecap="round"/>`,
  );
  out.push(
    `<ellipse cx="${cx}" cy="${topY + 2}" rx="24" ry="10" fill="${mix(mid, dark, 0.4)}"/><ellipse cx="${cx - 4}" cy="${topY - 1}" rx="10" ry="4" fill="#ffffff" opacity="0.4"/>`,
  );
  // carry handle on the side
  out.push(
    `<path d="M742 600Q800 610 786 660" stroke="${mix(mid, dark, 0.5)}" stroke-width="16" fill="none" stroke-linecap="round"/>`,
  );
  return out.join('');
}

export function singingBowl(c: Ctx): string {
  const { light, mid, dark } = c.p;
  const body = c.id('sb-body');
  const inner = c.id('sb-inner');
  const cushion = c.id('sb-cushion');
  const stick = c.id('sb-stick');
  const cushionCol = '#9c4f47';
  const out: string[] = [
    defs(
      linear(
        body,
        [
          [0, darken(dark, 0.15)],
          [0.25, mid],
          [0.45, lighten(light, 0.3)],
          [0.6, mid],
          [1, darken(dark, 0.25)],
        ],
        0,
        0,
        1,
        0,
      ),
      linear(inner, [
        [0, darken(dark, 0.35)],
        [0.6, dark],
        [1, mid],
      ]),
      linear(cushion, [
        [0, lighten(cushionCol, 0.15)],
        [1, darken(cushionCol, 0.25)],
      ]),
      linear(
        stick,
        [
          [0, WOOD.light],
          [1, WOOD.dark],
        ],
        0,
        0,
        1,
        0,
      ),
    ),
  ];
  // sound rings
  for (const [y, w, o] of [
    [440, 140, 0.35],
    [400, 200, 0.25],
    [360, 260, 0.15],
  ] as const) {
    out.push(
      `<path d="M${500 - w} ${y + 20}Q500 ${y - 30} ${500 + w} ${y + 20}" stroke="${mix(mid, dark, 0.3)}" stroke-width="5" fill="none" stroke-linecap="round" opacity="${o}"/>`,
    );
  }
  // the cushion
  out.push(disc(500, 792, 250, 62, 62, url(cushion), darken(cushionCol, 0.3)));
  out.push(`<ellipse cx="500" cy="792" rx="250" ry="62" fill="none" stroke="#d8b26a" stroke-width="4" opacity="0.6"/>`);
  out.push(
    `<path d="M250 822A250 62 0 0 0 750 822" stroke="#d8b26a" stroke-width="3" fill="none" stroke-dasharray="8 8" opacity="0.6"/>`,
  );
  // the bowl
  out.push(`<path d="M228 520C234 664 330 772 500 772C670 772 766 664 772 520Z" fill="${url(body)}"/>`);
  out.push(`<ellipse cx="500" cy="520" rx="272" ry="64" fill="${mix(light, mid, 0.3)}"/>`);
  out.push(`<ellipse cx="500" cy="524" rx="252" ry="52" fill="${url(inner)}"/>`);
  out.push(
    `<path d="M252 530A252 52 0 0 0 748 530" stroke="${lighten(light, 0.2)}" stroke-width="4" fill="none" opacity="0.5"/>`,
  );
  // etched bands
  out.push(
    `<path d="M240 590Q500 680 760 590M246 616Q500 706 754 616" stroke="${darken(dark, 0.3)}" stroke-width="3" fill="none" opacity="0.45"/>`,
  );
  let dots = '';
  for (let i = 0; i < 17; i++) {
    const t = (i + 0.5) / 17;
    const x = 250 + t * 500;
    const y = 603 + Math.sin(t * Math.PI) * 42;
    dots += `<circle cx="${f(x)}" cy="${f(y)}" r="3.4" fill="${darken(dark, 0.25)}" opacity="0.5"/>`;
  }
  out.push(dots);
  out.push(
    `<path d="M300 560Q310 680 390 738" stroke="#ffffff" stroke-width="16" fill="none" stroke-linecap="round" opacity="0.28"/>`,
  );
  // the striker leaning against the bowl
  out.push(
    `<g transform="rotate(-26 860 876)"><rect x="842" y="540" width="36" height="350" rx="18" fill="${url(stick)}"/><rect x="840" y="540" width="40" height="110" rx="20" fill="#8b6a4f"/><rect x="846" y="552" width="8" height="86" rx="4" fill="#ffffff" opacity="0.2"/></g>`,
  );
  return out.join('');
}

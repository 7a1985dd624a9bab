import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { PRODUCT_PAGE_REVIEWS_SHOWN, REVIEW_PAGE_SIZE } from '../common/constants.ts';
import { expectAccessible } from './a11y.ts';
import { csrfToken, postReview, type Review, registerThroughApi } from './reviews.ts';

// Stored XSS through reviews: every payload below is posted as a review's content and, when it
// fits in 100 characters, as a title, by ordinary shoppers; then the product page, the reviews
// page and My Reviews render them. The page must show each one as the very text that was written
// and nothing in it may run: no call of the sentinel `__xss`, no dialog, no request to the beacon
// path, no error thrown, no Content-Security-Policy violation (which would mean markup got into
// the page and only the policy stopped it). The visitor's pass runs without the policy at all,
// so the rendering alone has to hold. The payloads are posted through the API (as the storefront
// does) and each page shows as many of them as it can, so there are few page loads.

const BEACON = '/xss-beacon';

/** The stored-XSS corpus (at least 100 payloads). */
const payloads: string[] = [
  // Script elements
  '<script>__xss(1)</script>',
  '<SCRIPT>__xss(2)</SCRIPT>',
  '<script src="/xss-beacon/3.js"></script>',
  '<script>alert(4)</script>',
  '<scr<script>ipt>__xss(5)</scr</script>ipt>',
  '<script type="module">__xss(6)</script>',
  '<script/x>__xss(7)</script>',
  '</script><script>__xss(8)</script>',
  '</title><script>__xss(9)</script>',
  '</textarea><script>__xss(10)</script>',
  '</style><script>__xss(11)</script>',
  '<!--<script>-->__xss(12)<!--</script>-->',
  '<script>/*</script><script>*/__xss(13)</script>',
  '"><script>__xss(14)</script>',
  "'><script>__xss(15)</script>",
  // Images and media with handlers
  '<img src=x onerror=__xss(16)>',
  '<img src="x" onerror="alert(17)">',
  '<IMG SRC=x OnErRoR=__xss(18)>',
  '<img src=/xss-beacon/19>',
  '<img/src=x/onerror=__xss(20)>',
  '<img src=x onerror=&#95;&#95;xss(21)>',
  '<img src=x onerror="&#x5f;&#x5f;xss(22)">',
  '<img src=`x` onerror=__xss(23)>',
  '<img srcset="/xss-beacon/24 1x">',
  '<picture><source srcset="/xss-beacon/25"><img src=x></picture>',
  '<video><source onerror=__xss(26)></video>',
  '<audio src=x onerror=__xss(27)>',
  '<video poster=/xss-beacon/28></video>',
  '<input type=image src=x onerror=__xss(29)>',
  '<object data=/xss-beacon/30></object>',
  // SVG and MathML
  '<svg onload=__xss(31)>',
  '<svg><script>__xss(32)</script></svg>',
  '<svg><animate onbegin=__xss(33) attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:__xss(34)"><text x=20 y=20>click</text></a></svg>',
  '<svg><image href=/xss-beacon/35 /></svg>',
  '<svg><set attributeName=onload to=__xss(36)>',
  '<svg><foreignObject><img src=x onerror=__xss(37)></foreignObject></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=__xss(38)>',
  '<svg><style>@import "/xss-beacon/39";</style></svg>',
  '<svg/onload=alert(40)>',
  // javascript: and data: URLs
  '<a href="javascript:__xss(41)">click me</a>',
  '<a href="JaVaScRiPt:__xss(42)">x</a>',
  '<a href="java&#x09;script:__xss(43)">x</a>',
  '<a href=" &#14; javascript:__xss(44)">x</a>',
  '<iframe src="javascript:__xss(45)"></iframe>',
  '<iframe srcdoc="<script>parent.__xss(46)</script>"></iframe>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCg0Nyk8L3NjcmlwdD4=">x</a>',
  '<embed src="data:image/svg+xml,<svg onload=__xss(48)>">',
  '<form action="javascript:__xss(49)"><button>go</button></form>',
  '<button formaction="javascript:__xss(50)">go</button>',
  'javascript:__xss(51)',
  'javascript://%0a__xss(52)',
  '<a href="vbscript:msgbox(53)">x</a>',
  '<base href="javascript:__xss(54)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:__xss(55)">',
  // Event-handler attributes
  '<body onload=__xss(56)>',
  '<div onmouseover="__xss(57)">hover me</div>',
  '<details open ontoggle=__xss(58)>',
  '<input autofocus onfocus=__xss(59)>',
  '<select autofocus onfocus=__xss(60)>',
  '<textarea autofocus onfocus=__xss(61)>',
  '<marquee onstart=__xss(62)>',
  '<div style="animation-name:spin" onanimationstart=__xss(63)>',
  '<body onpageshow=__xss(64)>',
  '<x contenteditable onblur=__xss(65)>lose focus</x>',
  '" onmouseover="__xss(66)" x="',
  "' onfocus='__xss(67)' autofocus x='",
  '<a id=x tabindex=1 onfocusin=__xss(68)></a>',
  '<video autoplay onplay=__xss(69)><source src=x></video>',
  '<img src=x onload=__xss(70) onerror=__xss(70)>',
  // Template, markdown and framework tricks
  '{{constructor.constructor("__xss(71)")()}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is a template-literal injection attempt.
  '${__xss(72)}',
  '#{__xss(73)}',
  '<%= __xss(74) %>',
  '{{7*7}} [[7*7]] {7*7}',
  '[click](javascript:__xss(76))',
  '![img](x" onerror="__xss(77))',
  '[a](data:text/html,<script>__xss(78)</script>)',
  '<div ng-app ng-csp>{{$eval.constructor("__xss(79)")()}}</div>',
  '<div v-html="\'<img src=x onerror=__xss(80)>\'"></div>',
  '{"__html":"<img src=x onerror=__xss(81)>"}',
  '<div dangerouslySetInnerHTML={{__html: "<img src=x onerror=__xss(82)>"}} />',
  '<template><img src=x onerror=__xss(83)></template>',
  '<noscript><p title="</noscript><img src=x onerror=__xss(84)>">',
  '<style><img src="</style><img src=x onerror=__xss(85)//">',
  // HTML entities and encodings
  '&lt;script&gt;__xss(86)&lt;/script&gt;',
  '&#60;script&#62;__xss(87)&#60;/script&#62;',
  '&#x3C;img src=x onerror=__xss(88)&#x3E;',
  '%3Cscript%3E__xss(89)%3C%2Fscript%3E',
  '%253Cscript%253E__xss(90)%253C%252Fscript%253E',
  '\\u003cscript\\u003e__xss(91)\\u003c/script\\u003e',
  '\\x3cimg src=x onerror=__xss(92)\\x3e',
  '＜script＞__xss(93)＜/script＞',
  '\u003cscript\u003e__xss(94)\u003c/script\u003e',
  '<scr\u200bipt>__xss(95)</scr\u200bipt>',
  '\u202e>tpircs/<)69(ssx__>tpircs<',
  '+ADw-script+AD4-__xss(97)+ADw-/script+AD4-',
  // CSS
  '<div style="width:expression(__xss(98))">css</div>',
  '<div style="background:url(javascript:__xss(99))">css</div>',
  '<style>@import url("/xss-beacon/100");</style>',
  '<style>body{background:url("/xss-beacon/101")}</style>',
  '<link rel=stylesheet href=/xss-beacon/102>',
  '<div style="behavior:url(#default#time2)" onbegin="__xss(103)">',
  '<style>*{x:expression(__xss(104))}</style>',
  // Polyglots and oddities
  'jaVasCript:/*-/*`/*\\`/*\'/*"/**/(/* */oNcliCk=__xss(105) )//%0D%0A%0d%0a//</stYle/</titLe/</teXtarEa/</scRipt/--!>\\x3csVg/<sVg/oNloAd=__xss(105)//>\\x3e',
  '\'">><marquee><img src=x onerror=__xss(106)></marquee>"></plaintext\\></|\\><plaintext/onmouseover=prompt(106)>',
  '"\'--></style></script><script>__xss(107)</script>',
  '<<script>__xss(108);//<</script>',
  '<img """><script>__xss(109)</script>">',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;__xss(110)">x</a>',
  '<isindex type=image src=1 onerror=__xss(111)>',
  '<keygen autofocus onfocus=__xss(112)>',
  '<frameset onload=__xss(113)>',
  '<table background="javascript:__xss(114)">',
  '<xss id=x tabindex=1 onactivate=__xss(115)></xss>',
  '<plaintext><script>__xss(116)</script>',
  '<![CDATA[<script>__xss(117)</script>]]>',
  '<?xml version="1.0"?><script>__xss(118)</script>',
  '<!DOCTYPE html><html><body onload=__xss(119)>',
  '<script>fetch("/xss-beacon/120")</script>',
  '<img src=x onerror="fetch(\'/xss-beacon/121\')">',
  '<svg><use href="data:image/svg+xml,<svg id=x xmlns=\'http://www.w3.org/2000/svg\'><image href=1 onerror=__xss(122) /></svg>#x" />',
  // Long payloads: content only (over 100 characters once trimmed)
  `${'<b>calm</b> '.repeat(40)}<img src=x onerror=__xss(123)>`,
  `   ${'A quiet review. '.repeat(30)}<script>__xss(124)</script>\n\n<img src=x onerror=__xss(124)>   `,
];

const trimmed = (text: string) => text.trim();
const length = (text: string) => [...text].length;
const shortPayloads = payloads.filter((p) => length(trimmed(p)) <= 100);

/**
 * Products no other test writes on or counts the reviews of: not the demo fountain (70 reviews,
 * counted), the moon lamp (no 1-star review) or the meditation cushion (reviews-pages.spec.ts), nor
 * those of my-reviews.spec.ts (sunrise alarm light, paper lantern, salt lamp).
 */
const products = [
  'wireless-charger',
  'bamboo-tabletop-fountain',
  'ceramic-lotus-fountain',
  'rock-cascade-fountain',
  'mini-zen-garden',
  'wood-grain-oil-diffuser',
  'essential-oil-collection',
  'soy-candle-trio',
  'weighted-eye-pillow',
  'acupressure-mat-set',
  'singing-bowl-set',
  'succulent-planter-set',
  'driftwood-wall-hanging',
  'river-stone-bookends',
  'backflow-incense-waterfall',
  'lavender-sleep-mist',
  'calm-gift-box',
  'desk-sand-timer',
  'led-cloud-light',
  'moving-sand-art-frame',
];

type Draft = { title: string; content: string; rating: number };
/** One review per payload (its content), each with a short payload as its title. */
const drafts: Draft[] = payloads.map((content, i) => ({
  content,
  title: shortPayloads[i % shortPayloads.length] ?? '<b>title</b>',
  rating: 1 + ((i * 7) % 41) / 10,
}));

/**
 * The payloads in two halves, one test each (they run side by side), each on half of the
 * products. One review per user and product: a half's payloads are written by several shoppers,
 * each reviewing every product of the half once at most. The product page shows a product's
 * newest reviews (3), so the shoppers write in groups of that many, and the product pages are
 * checked after each group.
 */
type Half = { first: number; products: string[]; shoppers: Draft[][] };
const HALVES = 2;
const halves: Half[] = Array.from({ length: HALVES }, (_, half) => {
  const size = Math.ceil(drafts.length / HALVES);
  const own = products.filter((_, i) => i % HALVES === half);
  const written = drafts.slice(half * size, (half + 1) * size);
  const shoppers: Draft[][] = [];
  for (let i = 0; i < written.length; i += own.length) shoppers.push(written.slice(i, i + own.length));
  return { first: half * size, products: own, shoppers };
});

test('the corpus has at least 100 payloads, each posted as content and the short ones as titles', () => {
  expect(payloads.length).toBeGreaterThanOrEqual(100);
  expect(new Set(payloads).size).toBe(payloads.length);
  for (const p of payloads) expect(length(trimmed(p))).toBeLessThanOrEqual(1000);
  const titles = new Set(drafts.map((d) => d.title));
  for (const p of shortPayloads) expect(titles.has(p)).toBe(true);
  // Each posted once, a shopper's on different products, and the first page of a product's
  // reviews (the one rendered on the server) holds all of a half's reviews of it.
  expect(halves.flatMap((half) => half.shoppers.flat())).toEqual(drafts);
  for (const half of halves) {
    for (const written of half.shoppers) expect(written.length).toBeLessThanOrEqual(half.products.length);
    expect(half.shoppers.length).toBeLessThanOrEqual(REVIEW_PAGE_SIZE);
  }
});

/** A shopper's browser page, watched for anything that runs, and the reviews they posted. */
type Shopper = { page: Page; hits: string[]; reviews: Review[] };

async function postAsWritten(shopper: Shopper, productId: string, draft: Draft, csrf: string) {
  const { review } = await postReview(shopper.page.request, productId, draft, { csrf });
  // Stored as written, only trimmed.
  expect(review.title).toBe(trimmed(draft.title));
  expect(review.content).toBe(trimmed(draft.content));
  shopper.reviews.push(review);
}

/**
 * Everything that would betray a payload that ran: the sentinel, dialogs, beacon requests,
 * thrown errors, console errors (the page silences its own console, so these are the browser's)
 * and policy violations.
 */
function watch(page: Page) {
  const hits: string[] = [];
  page.on('dialog', async (dialog) => {
    hits.push(`dialog ${dialog.type()}: ${dialog.message()} on ${page.url()}`);
    await dialog.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (error) => hits.push(`pageerror: ${error.message} on ${page.url()}`));
  page.on('console', (message) => {
    if (message.type() === 'error') {
      hits.push(`console ${message.type()}: ${message.text()} on ${page.url()}`);
    }
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(BEACON)) hits.push(`beacon request ${request.url()}`);
  });
  page.on('popup', (popup) => hits.push(`popup ${popup.url()}`));
  return hits;
}

/** The sentinel and the policy-violation record, installed before any script of the page. */
async function installSentinel(context: BrowserContext) {
  await context.addInitScript(() => {
    const record = window as unknown as { __xssHits: string[]; __cspViolations: string[] };
    record.__xssHits = [];
    record.__cspViolations = [];
    Object.defineProperty(window, '__xss', {
      value: (...args: unknown[]) => record.__xssHits.push(`__xss(${args.map(String).join(',')})`),
    });
    document.addEventListener('securitypolicyviolation', (event) => {
      record.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
}

/** The page without its Content-Security-Policy: the rendering alone must keep the payloads inert. */
async function dropCsp(page: Page) {
  await page.route(
    (url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/'),
    async (route) => {
      if (!route.request().isNavigationRequest()) return route.fallback();
      const response = await route.fetch();
      const headers = { ...response.headers() };
      for (const name of ['content-security-policy', 'content-encoding', 'content-length']) delete headers[name];
      await route.fulfill({ response, headers, body: await response.body() });
    },
  );
}

/** Waits for the app to take the page over (web/root.tsx marks it) and for late handlers (image errors, animations) to fire. */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () => document.querySelector('h1') !== null && document.documentElement.hasAttribute('data-hydrated'),
  );
  await page.waitForTimeout(150);
}

/** The exact text of every element of the page (a payload shown as text is one element's text). */
async function texts(page: Page): Promise<Set<string>> {
  return new Set(
    await page.evaluate(() =>
      [...document.body.querySelectorAll('*')]
        .filter((element) => !['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(element.tagName))
        .map((element) => element.textContent ?? ''),
    ),
  );
}

/** Nothing ran, nothing was blocked, and no markup of a review reached the document. */
async function expectInert(page: Page, hits: string[], where: string) {
  const state = await page.evaluate(() => {
    const record = window as unknown as { __xssHits: string[]; __cspViolations: string[] };
    const handlers = [...document.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes]
        .filter(
          (attribute) =>
            /^on/i.test(attribute.name) ||
            (/^(href|src|action|formaction|xlink:href|background|poster|data)$/i.test(attribute.name) &&
              /^[\s\p{Cc}]*(javascript|vbscript):/iu.test(attribute.value)),
        )
        .map((attribute) => `<${element.tagName.toLowerCase()} ${attribute.name}="${attribute.value}">`),
    );
    const foreign = [
      ...document.querySelectorAll(
        'main iframe, main object, main embed, main form[action], main base, main meta, main link, main style, main math, main marquee, main img:not([alt]), main video, main audio',
      ),
    ].map((element) => element.outerHTML.slice(0, 120));
    const scripts = [...document.scripts]
      .filter((script) => !script.nonce && !(script.src && new URL(script.src).origin === location.origin))
      .filter((script) => !['application/ld+json', 'application/json'].includes(script.type))
      .map((script) => script.outerHTML.slice(0, 120));
    return { sentinel: record.__xssHits, csp: record.__cspViolations, handlers, foreign, scripts };
  });
  expect({ ...state, hits }, `${where}: no payload may run, be blocked by the policy or become markup`).toEqual({
    sentinel: [],
    csp: [],
    handlers: [],
    foreign: [],
    scripts: [],
    hits: [],
  });
}

/** Each review's title and content are shown exactly as written (so as text, not as markup). */
async function expectShownAsText(page: Page, reviews: Review[], where: string) {
  const shown = await texts(page);
  const missing = reviews.flatMap((review) =>
    [review.title, review.content].filter((text) => !shown.has(text)).map((text) => `${review.id}: ${text}`),
  );
  expect(missing, `${where}: every payload shown as its own text`).toEqual([]);
}

async function newShopperContext(browser: Browser) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await installSentinel(context);
  return context;
}

/**
 * Shows the reviews of one product to their authors on a page that lists them all (`open` loads
 * it for one author, with that author's review to pin, and answers the path). An author sees the
 * public reviews and their own, so one load shows all the public ones; a review the moderator
 * held back needs a load of its own author. Each review shown is added to `seen`.
 */
async function showToAuthors(
  written: { review: Review; author: Shopper }[],
  open: (author: Shopper, review: Review) => Promise<string>,
  seen: Set<Review>,
) {
  let left = written;
  while (left.length > 0) {
    const next = left.find((w) => w.review.status !== 'approved') ?? left[0];
    if (!next) break;
    const { author, review } = next;
    const shown = written.filter((w) => w.review.status === 'approved' || w.author === author);
    const where = await open(author, review);
    await expectShownAsText(
      author.page,
      shown.map((w) => w.review),
      where,
    );
    await expectInert(author.page, author.hits, where);
    for (const w of shown) seen.add(w.review);
    left = left.filter((w) => !shown.includes(w));
  }
}

for (const half of halves) {
  const last = half.first + half.shoppers.flat().length;
  test(`stored payloads ${half.first + 1}-${last} stay text on the product pages, the reviews pages and My Reviews`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const contexts: BrowserContext[] = [];
    async function newShopper(): Promise<Shopper> {
      const context = await newShopperContext(browser);
      contexts.push(context);
      const page = await context.newPage();
      return { page, hits: watch(page), reviews: [] };
    }
    // axe once on each kind of page (the first load of each).
    const checked = new Set<string>();
    async function expectAccessibleOnce(page: Page, kind: string) {
      if (checked.has(kind)) return;
      checked.add(kind);
      await expectAccessible(page);
    }
    /** The reviews of one product, each with its author. */
    const reviewsOf = (shoppers: Shopper[], product: string) =>
      shoppers.flatMap((author) =>
        author.reviews.filter((review) => review.productId === product).map((review) => ({ review, author })),
      );

    // The reviews each page showed, to make sure that none was left out.
    const onProductPages = new Set<Review>();
    const onReviewsPages = new Set<Review>();

    try {
      const visitor = await newShopper();
      await dropCsp(visitor.page);
      const authors: Shopper[] = [];
      for (let from = 0; from < half.shoppers.length; from += PRODUCT_PAGE_REVIEWS_SHOWN) {
        const group: Shopper[] = [];
        await test.step('a group of shoppers post the payloads through the API', async () => {
          for (const written of half.shoppers.slice(from, from + PRODUCT_PAGE_REVIEWS_SHOWN)) {
            const author = await newShopper();
            await registerThroughApi(author.page.request);
            const csrf = await csrfToken(author.page.request);
            for (const [i, draft] of written.entries()) {
              const product = half.products[i];
              if (!product) throw new Error('more reviews than products for one shopper');
              await postAsWritten(author, product, draft, csrf);
            }
            group.push(author);
          }
          authors.push(...group);
        });

        await test.step("the product pages: as the authors, and as a visitor without the policy (the group's reviews are the newest)", async () => {
          for (const product of half.products) {
            const written = reviewsOf(group, product);
            if (written.length === 0) continue;
            const path = `/product/${product}`;
            await showToAuthors(
              written,
              async (author) => {
                await author.page.goto(path);
                await settle(author.page);
                await expectAccessibleOnce(author.page, 'product');
                return path;
              },
              onProductPages,
            );
            await visitor.page.goto(path);
            await settle(visitor.page);
            const where = `${path} (visitor, no CSP)`;
            const published = written.filter((w) => w.review.status === 'approved').map((w) => w.review);
            await expectShownAsText(visitor.page, published, where);
            await expectInert(visitor.page, visitor.hits, where);
          }
        });
      }

      await test.step('the reviews pages, as the authors, one review pinned to the top and the others below', async () => {
        for (const product of half.products) {
          await showToAuthors(
            reviewsOf(authors, product),
            async (author, review) => {
              const path = `/product/${product}/reviews?review=${review.id}`;
              const response = await author.page.goto(path);
              expect(response?.status(), `${path} answers (the reviews page exists)`).toBe(200);
              await settle(author.page);
              await expect(
                author.page.getByRole('region', { name: 'Showing specific review' }).getByRole('heading', { level: 3 }),
              ).toHaveText(review.title);
              await expectAccessibleOnce(author.page, 'reviews');
              return path;
            },
            onReviewsPages,
          );
        }
        const posted = authors.flatMap((author) => author.reviews);
        expect(posted).toHaveLength(half.shoppers.flat().length);
        const missing = (seen: Set<Review>) => posted.filter((review) => !seen.has(review)).map((review) => review.id);
        expect({ productPages: missing(onProductPages), reviewsPages: missing(onReviewsPages) }).toEqual({
          productPages: [],
          reviewsPages: [],
        });
      });

      await test.step('My Reviews, loaded and rendered in the browser', async () => {
        for (const { page, hits, reviews } of authors) {
          await page.goto('/account?tab=reviews');
          await settle(page);
          await expectShownAsText(page, reviews, 'My Reviews');
          await expectInert(page, hits, 'My Reviews');
          await expectAccessibleOnce(page, 'my-reviews');
          // The same list rendered by React in the browser (a client navigation between tabs).
          await page.getByRole('tab', { name: 'Profile' }).click();
          await page.getByRole('tab', { name: 'My Reviews' }).click();
          await expect(page.getByRole('heading', { name: 'My reviews' })).toBeVisible();
          await expectShownAsText(page, reviews, 'My Reviews after a client navigation');
          // The edit form holds the payloads as field values, never as markup (the newest review is first).
          const newest = reviews.at(-1);
          if (newest) {
            await page.getByRole('article').first().getByRole('button', { name: 'Edit review' }).click();
            await expect(page.getByLabel('Title', { exact: true })).toHaveValue(newest.title);
            await expect(page.getByLabel('Review', { exact: true })).toHaveValue(newest.content);
            await page.getByRole('button', { name: 'Cancel' }).click();
          }
          await expectInert(page, hits, 'My Reviews after a client navigation');
        }
      });
    } finally {
      for (const context of contexts) await context.close();
    }
  });
}

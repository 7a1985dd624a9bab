import {
  AI_FEATURES_MAX,
  AI_SEO_KEYWORDS_MAX,
  AI_TAGS_MAX,
  type AiTone,
  SEO_DESCRIPTION_MAX,
  SEO_TITLE_MAX,
} from '#common/ai-content-rules.ts';

/*
 * The built-in product copy: written from the product's own data with no model, the same answer
 * for the same data. It is the answer when no AI is configured and the fallback when a model
 * fails. It cannot follow a free prompt; it applies the tone, the audience and the focus keywords.
 */

/** What is known of the product: the shop's record, the marketplace listing, or the form's data. */
export type ProductFacts = {
  title: string;
  /** Plain text, paragraphs separated by blank lines. */
  description: string;
  features: string[];
  tags: string[];
  categories: string[];
  specifications: Record<string, string>;
  /** The variants' names, e.g. 'Stone Grey'. */
  variants: string[];
  /** Integer cents; null when unknown. */
  price: number | null;
};

export type CopyRequest = { tone: AiTone; targetAudience: string; keywords: string };

export type ProductCopy = {
  title: string;
  description: string;
  features: string[];
  tags: string[];
  seo: { metaTitle: string; metaDescription: string; keywords: string[] };
};

/** A title a shopper reads at a glance (the model may write up to AI_TITLE_MAX). */
const TITLE_TARGET = 80;

/** Marketplace listing noise: sales talk and logistics that say nothing about the product. */
const NOISE_PHRASES = [
  'free shipping',
  'fast shipping',
  'fast delivery',
  'drop shipping',
  'dropshipping',
  'dropship',
  'wholesale',
  'hot sale',
  'hot selling',
  'best selling',
  'best seller',
  'bestseller',
  'new arrival',
  'new arrivals',
  'brand new',
  'high quality',
  'top quality',
  'best quality',
  'good quality',
  'factory price',
  'factory direct',
  'in stock',
  'on sale',
  'limited offer',
  'promotion',
  'cheap',
  'new releases',
  'best sellers',
  'aliexpress',
];
/**
 * Words that are noise in front of a listing that has other noise ('2024 New Hot Sale ...', '【Hot】 ...'),
 * and part of the name otherwise ('Hot Stone Massage Set', 'New Moon Lamp').
 */
const LEADING_NOISE = ['new', 'hot', 'newest', 'latest', 'trending', 'original', 'genuine', 'official', 'upgraded'];
const leadingNoisePattern = new RegExp(
  `^(?:[\\s,;:/&+|()\\[\\]【】-]*(?:${LEADING_NOISE.join('|')}|20[1-3]\\d|1\\s?pcs?)(?![\\p{L}\\p{N}]))+`,
  'iu',
);
const leadingWordsPattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${LEADING_NOISE.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
const noisePattern = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${NOISE_PHRASES.map((phrase) => phrase.replace(' ', '[\\s-]+')).join('|')}|20[1-3]\\d|1\\s?pcs?)(?![\\p{L}\\p{N}])`,
  'giu',
);
/** Words a title may repeat and that neither tags nor keywords are made of. */
const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'by',
  'for',
  'from',
  'in',
  'into',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
  'your',
  'you',
  'its',
  'it',
  'is',
  'are',
  'this',
  'that',
]);

/** A listing title made readable: noise and repeated words removed, capitalised, cut to a sensible length. */
export function cleanTitle(raw: string): string {
  let noisy = false;
  // A bracketed label of noise ('【Hot】', '[2024 NEW]') goes whole; other brackets are opened.
  let text = plain(raw).replace(/[【[(（{]([^】\])）}]*)[】\])）}]/g, (_, inner: string) => {
    const isNoise = inner.replace(noisePattern, ' ').replace(leadingWordsPattern, ' ').trim() === '';
    noisy ||= isNoise;
    return isNoise ? ' ' : ` ${inner} `;
  });
  text = text.replace(/[【】[\]{}<>()（）]/g, ' ');
  const stripped = text.replace(noisePattern, ' ');
  noisy ||= stripped !== text;
  // 'New' and 'Hot' in front are noise in a listing that has other noise, part of the name otherwise.
  text = noisy ? stripped.replace(leadingNoisePattern, ' ') : stripped;
  const seen = new Set<string>();
  const words: string[] = [];
  for (const word of text.split(/\s+/)) {
    const bare = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (!bare) {
      // Separators between two kept words survive once (a dash, a slash, an ampersand).
      if (/^[-/&+|]+$/.test(word) && words.length > 0 && !/^[-/&+|,]+$/.test(words.at(-1) ?? '')) words.push(word);
      continue;
    }
    const key = bare.toLowerCase();
    if (!SMALL_WORDS.has(key)) {
      // Keyword stuffing: a word said again adds nothing.
      if (seen.has(key)) continue;
      seen.add(key);
    }
    words.push(word);
  }
  const title = trimEdges(
    words
      .join(' ')
      .replace(/\s+([,;:])/g, '$1')
      .replace(/([,;:])(?:\s*[,;:])+/g, '$1'),
  );
  return capitalise(cutWords(withoutUses(title), TITLE_TARGET, { trimSmallWords: true }));
}

/** A long listing title's trailing list of uses ('… for Home Office Bedroom Car') is left to the description. */
function withoutUses(title: string): string {
  if (title.length <= TITLE_TARGET) return title;
  const at = title.search(/\s(?:for|suitable for|perfect for|ideal for)\s/i);
  return at >= 20 ? title.slice(0, at) : title;
}

/** Words in capitals (marketplace shouting) lowered; acronyms (LED, USB-C, 3D) and words with digits kept. */
function capitalise(title: string): string {
  return title
    .split(' ')
    .map((word, index) => {
      const letters = word.replace(/[^\p{L}]/gu, '');
      if (letters.length > 4 && letters === letters.toUpperCase()) word = word.toLowerCase();
      const lower = word.toLowerCase();
      if (index > 0 && SMALL_WORDS.has(lower)) return lower;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}

/** The short name a description calls the product by: the title before 'with', a comma or a dash. */
function shortName(title: string): string {
  const name = title.split(/\s+(?:with|for|[-–—|])\s+|,\s*/i)[0]?.trim() || title;
  return name.length >= 3 ? name : title;
}

type ToneWords = {
  opening: (name: string) => string;
  highlights: (items: string[]) => string;
  details: (items: string[]) => string;
  options: (count: number, names: string[]) => string;
  audience: (who: string) => string;
  closing: string;
};

const tones: Record<AiTone, ToneWords> = {
  professional: {
    opening: (name) => `The ${name} is thoughtfully designed, dependable and made for everyday use.`,
    highlights: (items) => `Key features include ${sentenceList(items)}.`,
    details: (items) => `Specifications: ${items.join('; ')}.`,
    options: (count, names) => `It is available in ${count} options: ${sentenceList(names)}.`,
    audience: (who) => `Designed for ${who}.`,
    closing: 'A considered addition to any home or workspace.',
  },
  casual: {
    opening: (name) => `Meet the ${name}, an easy way to make your space feel a little calmer.`,
    highlights: (items) => `You get ${sentenceList(items)}.`,
    details: (items) => `The details: ${items.join('; ')}.`,
    options: (count, names) => `Pick from ${count} options: ${sentenceList(names)}.`,
    audience: (who) => `Great for ${who}.`,
    closing: 'Set it up, sit back and enjoy.',
  },
  enthusiastic: {
    opening: (name) => `Get ready to love the ${name}! It brings instant calm to any room.`,
    highlights: (items) => `You'll love ${sentenceList(items)}!`,
    details: (items) => `All the details: ${items.join('; ')}.`,
    options: (count, names) => `Choose from ${count} gorgeous options: ${sentenceList(names)}!`,
    audience: (who) => `Perfect for ${who}!`,
    closing: 'Treat yourself, or someone you love, today!',
  },
  technical: {
    opening: (name) => `The ${name}: product overview, features and technical data.`,
    highlights: (items) => `Features: ${items.join('; ')}.`,
    details: (items) => `Technical specifications: ${items.join('; ')}.`,
    options: (count, names) => `Variants (${count}): ${names.join(', ')}.`,
    audience: (who) => `Intended users: ${who}.`,
    closing: 'See the specifications above for dimensions, materials and power requirements.',
  },
  luxury: {
    opening: (name) => `The ${name} is an exquisite piece, crafted for those who appreciate refined details.`,
    highlights: (items) => `Every detail is considered: ${sentenceList(items)}.`,
    details: (items) => `Crafted to exacting standards: ${items.join('; ')}.`,
    options: (count, names) => `Offered in ${count} elegant finishes: ${sentenceList(names)}.`,
    audience: (who) => `Created for ${who}.`,
    closing: 'An understated indulgence for a calmer, more beautiful home.',
  },
  friendly: {
    opening: (name) => `We think you'll love the ${name}: a simple way to make every day feel calmer.`,
    highlights: (items) => `It comes with ${sentenceList(items)}.`,
    details: (items) => `Good to know: ${items.join('; ')}.`,
    options: (count, names) => `There are ${count} options to choose from: ${sentenceList(names)}.`,
    audience: (who) => `It's a lovely pick for ${who}.`,
    closing: 'We hope it brings a little calm to your day.',
  },
  minimalist: {
    opening: (name) => `${name}. Simple, useful, calm.`,
    highlights: (items) => `${items.map((item) => sentenceCase(item)).join('. ')}.`,
    details: (items) => `${items.join('. ')}.`,
    options: (count, names) => `${count} options: ${names.join(', ')}.`,
    audience: (who) => `For ${who}.`,
    closing: 'Nothing more.',
  },
};

/** The specifications a description names first, when the product has them. */
const KEY_SPECIFICATIONS = ['material', 'dimensions', 'size', 'weight', 'capacity', 'power', 'lighting', 'included'];

/** The built-in copy for a product: every field, whichever are asked (the task keeps those). */
export function writeProductCopy(facts: ProductFacts, request: CopyRequest): ProductCopy {
  const title = cleanTitle(facts.title) || 'Untitled product';
  const name = shortName(title);
  const focus = splitKeywords(request.keywords);
  const features = benefitLines(facts);
  const description = descriptionOf(facts, request, name, features);
  const tags = tagsOf(facts, title, focus);
  return {
    title,
    description,
    features,
    tags,
    seo: {
      metaTitle: cutWords(title, SEO_TITLE_MAX, { trimSmallWords: true }),
      metaDescription: metaDescriptionOf(description, title, facts),
      keywords: unique([...focus, ...tags].map((word) => word.toLowerCase())).slice(0, AI_SEO_KEYWORDS_MAX),
    },
  };
}

function descriptionOf(facts: ProductFacts, request: CopyRequest, name: string, features: string[]): string {
  const words = tones[request.tone];
  const paragraphs: string[][] = [[words.opening(name)], [], []];
  const lead = firstSentences(facts.description, 2);
  if (lead) paragraphs[0]?.push(lead);
  const fromFeatures = hasFeatures(facts);
  if (fromFeatures) {
    paragraphs[1]?.push(words.highlights(features.slice(0, 3).map((line) => lowerFirst(line.replaceAll(', ', ' – ')))));
  }
  // Without features the benefit lines are the specifications already: said once.
  const details = keySpecifications(facts.specifications).map(([key, value]) => `${key.toLowerCase()} ${value}`);
  if (details.length > 0 && fromFeatures) paragraphs[1]?.push(words.details(details));
  else if (features.length > 0) paragraphs[1]?.push(words.details(features));
  const options = unique(facts.variants.map((variant) => plain(variant)).filter(Boolean));
  if (options.length > 1) paragraphs[2]?.push(words.options(options.length, options.slice(0, 6)));
  const audience = plain(request.targetAudience);
  if (audience) paragraphs[2]?.push(words.audience(audience));
  paragraphs[2]?.push(words.closing);
  return paragraphs
    .filter((sentences) => sentences.length > 0)
    .map((sentences) => sentences.join(' '))
    .join('\n\n');
}

function cleanFeatures(facts: ProductFacts): string[] {
  return facts.features
    .map((feature) => sentenceCase(trimEdges(plain(feature).replace(noisePattern, ' ').replace(/\s+/g, ' '))))
    .filter((feature) => feature.length >= 3)
    .map((feature) => cutWords(feature, 80, { trimSmallWords: true }));
}

function hasFeatures(facts: ProductFacts): boolean {
  return cleanFeatures(facts).length > 0;
}

/** Short benefit lines: the product's features cleaned, else its key specifications. */
function benefitLines(facts: ProductFacts): string[] {
  const fromFeatures = cleanFeatures(facts);
  const lines = fromFeatures.length
    ? fromFeatures
    : keySpecifications(facts.specifications).map(([key, value]) => cutWords(`${key}: ${value}`, 80));
  return uniqueBy(lines, (line) => line.toLowerCase()).slice(0, AI_FEATURES_MAX);
}

function tagsOf(facts: ProductFacts, title: string, focus: string[]): string[] {
  const titleWords = title
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((word) => word.length >= 3 && !SMALL_WORDS.has(word) && !/^\d+$/.test(word));
  // A tag with sales talk in it ('New Releases', 'Hot Sale') is dropped, not cut down to a word.
  const candidates = [...facts.categories, ...focus, ...facts.tags, ...titleWords]
    .map((tag) => plain(tag).toLowerCase())
    .filter((tag) => tag.length >= 2 && tag.length <= 30 && !new RegExp(noisePattern.source, 'iu').test(tag));
  return unique(candidates).slice(0, AI_TAGS_MAX);
}

/**
 * A search result's snippet: the product's own first sentence (after the title when both fit),
 * else the description's first sentences that fit.
 */
function metaDescriptionOf(description: string, title: string, facts: ProductFacts): string {
  const own = firstSentences(facts.description, 1);
  const titled = `${title}. ${own}`;
  if (own && titled.length <= SEO_DESCRIPTION_MAX) return titled;
  if (own && own.length <= SEO_DESCRIPTION_MAX) return own;
  const sentences = sentencesOf(description.replace(/\s+/g, ' '));
  let text = '';
  for (const sentence of sentences) {
    const next = `${text} ${sentence.trim()}`.trim();
    if (next.length > SEO_DESCRIPTION_MAX) break;
    text = next;
  }
  return text || `${cutWords(description.replace(/\s+/g, ' '), SEO_DESCRIPTION_MAX - 1)}…`;
}

function keySpecifications(specifications: Record<string, string>): [string, string][] {
  const entries = Object.entries(specifications)
    .map(([key, value]) => [plain(key), plain(value)] as [string, string])
    .filter(([key, value]) => key && value && value.length <= 80);
  const rank = (key: string) => {
    const index = KEY_SPECIFICATIONS.findIndex((wanted) => key.toLowerCase().includes(wanted));
    return index === -1 ? KEY_SPECIFICATIONS.length : index;
  };
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry[0]) - rank(b.entry[0]) || a.index - b.index)
    .slice(0, 3)
    .map(({ entry }) => entry);
}

/** The description's first sentences (up to `count`, at most 300 characters); '' for text that is not prose. */
function firstSentences(text: string, count: number): string {
  const prose = plain(text).replace(/^(?:product\s+)?(?:description|details|features|specifications?)\s*:\s*/i, '');
  const sentences = sentencesOf(prose).filter((sentence) => /[.!?]$/.test(sentence));
  let kept = '';
  for (const sentence of sentences.slice(0, count)) {
    if (!/\p{L}{3}/u.test(sentence)) break;
    const next = `${kept} ${sentence}`.trim();
    if (next.length > 300) break;
    kept = next;
  }
  return kept;
}

/** Sentences: a full stop, ! or ? followed by a capital (so '9.4 cm' and 'approx. 3' stay whole). */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** Focus keywords: comma, semicolon or line separated, trimmed, without duplicates. */
export function splitKeywords(keywords: string): string[] {
  return unique(
    keywords
      .split(/[,;\n]+/)
      .map((word) => plain(word).toLowerCase())
      .filter((word) => word.length >= 2 && word.length <= 40),
  ).slice(0, AI_SEO_KEYWORDS_MAX);
}

/** Text without markup, entities decoded, on one line. */
export function plain(text: string): string {
  return text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/p>|<\/div>|<\/li>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
    .replace(/\n+/g, ' ');
}

/** At most `max` characters, cut between words. */
export function cutWords(text: string, max: number, { trimSmallWords = false } = {}): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  cut = space > max / 2 ? cut.slice(0, space) : text.slice(0, max);
  cut = trimEdges(cut);
  if (trimSmallWords) {
    const words = cut.split(' ');
    while (words.length > 1 && SMALL_WORDS.has((words.at(-1) ?? '').toLowerCase())) words.pop();
    cut = trimEdges(words.join(' '));
  }
  return cut;
}

/** Without separators or punctuation hanging at either end. */
function trimEdges(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:/&+|–—.-]+|[\s,;:/&+|–—-]+$/g, '')
    .trim();
}

function sentenceCase(text: string): string {
  const trimmed = text.replace(/[.;]+$/, '').trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** 'Whisper-quiet pump' → 'whisper-quiet pump', but 'LED light' and 'USB-C input' stay. */
function lowerFirst(text: string): string {
  const first = text.split(' ')[0] ?? '';
  if (first.length > 1 && first === first.toUpperCase()) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function sentenceList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function unique(items: string[]): string[] {
  return uniqueBy(items, (item) => item);
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

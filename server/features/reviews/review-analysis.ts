import type { ReviewAnalysis } from '#common/contracts/reviews.ts';

export type ReviewText = { rating: number; title: string; content: string };

/**
 * The shop's built-in review analysis (the storefront's "AI review overview" when no AI model
 * is configured): plain counting over the reviews' own words, pure and deterministic.
 *
 * - `recommendationScore`: share of reviews rated 4 stars or more, as a whole percent (0 without reviews).
 * - `overallSentiment`: positive from an average of 3.75 when most reviewers recommend it, negative
 *   at 2.5 or less; the words of the reviews (a small English lexicon, with negation: "not loud")
 *   move a product whose average is within half a star of a threshold.
 * - `commonPraises` / `commonConcerns`: up to 5 phrases of 1 to 3 words taken from the reviews,
 *   each formatted as "Soothing sound (26 reviews)", where the count is how many distinct reviews
 *   say it. A phrase must name something specific (a descriptive word such as "soothing", or a
 *   product aspect such as "packaging"); it is a praise when said approvingly in reviews of 3
 *   stars or more, a concern when said critically (or neutrally in a review of 2.5 stars or less),
 *   whichever side holds more reviews. Phrases in one list share no word.
 * - `keyInsights`: 2 to 4 facts counted from the ratings and phrases (none without reviews). The
 *   reviews carry no dates, so nothing is said about trends over time.
 *
 * Ratings outside 1 to 5 are clamped; reviews whose rating is not a number are left out.
 */
export function analyseReviews(reviews: readonly ReviewText[]): ReviewAnalysis {
  const vocabulary = new Map<string, Token>();
  const facts = reviews
    .filter((review) => Number.isFinite(review.rating))
    .map((review, index) => readReview(review, index, vocabulary));
  const n = facts.length;
  if (n === 0) {
    return {
      recommendationScore: 0,
      overallSentiment: 'neutral',
      summary: 'No reviews yet.',
      commonPraises: [],
      commonConcerns: [],
      keyInsights: [],
    };
  }
  const ratings = facts.map((fact) => fact.rating);
  const recommended = ratings.filter((rating) => rating >= RECOMMEND_RATING).length;
  const recommendationScore = Math.round((recommended / n) * 100);
  const averageRating = mean(ratings);
  const phrases = collectPhrases(facts);
  const praises = selectPhrases(phrases, 'praise', n);
  const concerns = selectPhrases(phrases, 'concern', n);
  const wordPolarity = mean(facts.map((fact) => fact.wordPolarity));
  const overallSentiment = judgeSentiment(averageRating, recommendationScore, wordPolarity);
  return {
    recommendationScore,
    overallSentiment,
    summary: summarise({ n, recommended, recommendationScore, averageRating, praises, concerns }),
    commonPraises: praises.map(label),
    commonConcerns: concerns.map(label),
    keyInsights: findInsights({ facts, averageRating, concerns }),
  };
}

const RECOMMEND_RATING = 4;
const CRITICAL_RATING = 2.5;
const MAX_PHRASES = 5;
const MAX_PHRASE_WORDS = 3;
/** Stopwords that may sit between the words of one phrase ("sound is so soothing"). */
const MAX_GAP = 3;
/** A longer phrase replaces a shorter one it contains when at least this share of reviews says it. */
const EXTEND_RATIO = 0.5;
const NEGATION_REACH = 3;

type Role = 'generic' | 'standalone' | 'modifier';
type Polar = { weight: number; role: Role; adjective: boolean };

const words = (list: string) => list.trim().split(/\s+/);

const LEXICON = new Map<string, Polar>();
function define(list: string, weight: number, role: Role, adjective: boolean) {
  for (const word of words(list)) LEXICON.set(word, { weight, role, adjective });
}
// Sentiment only: too vague to be a praise or a concern on their own.
define(
  `good great nice lovely love loved loves loving amazing awesome excellent perfect perfectly best happy
  pleased fantastic wonderful brilliant superb recommend recommended impressed glad satisfied enjoy enjoyed
  enjoying worth fave favorite favourite beautifully delighted delightful thrilled fun pleasant classy class
  helpful solved fixed flawless`,
  1,
  'generic',
  false,
);
define(
  `bad poor terrible awful horrible worst disappointing disappointed disappointment useless waste junk returned
  unfortunately sadly shame problem problems issue issues complaint complaints complain annoying annoyed
  irritating frustrating frustrated wish worse meh lacking lacks mistake regret`,
  -1,
  'generic',
  false,
);
// Descriptive words that make a praise or concern by themselves ("Relaxing", "Splashing").
define(
  `soothing calming relaxing peaceful tranquil serene quiet cozy cosy sturdy durable reliable compact stylish
  elegant beautiful gorgeous pretty cute charming premium handy convenient practical functional comfortable
  comfy gentle calm well-made quieter lightweight roomy spacious ergonomic intuitive responsive powerful
  efficient vibrant crisp`,
  1,
  'standalone',
  true,
);
define(
  `noisy noisier loud louder flimsy fragile leaky wobbly broken cracked chipped damaged defective faulty smelly overpriced
  uncomfortable messy unreliable gimmicky bulky stiff sticky squeaky scratchy itchy tinny muffled blurry flimsier
  rusty frayed`,
  -1,
  'standalone',
  true,
);
define(
  `hum hums humming hummed buzz buzzing buzzes rattle rattles rattling grinding gurgle gurgles gurgling
  gurgled whine whining splash splashes splashing splashed leak leaks leaking leaked crack cracks dent dents
  scratch scratches scratched stain stains rust mold mould residue buildup`,
  -1,
  'standalone',
  false,
);
// Descriptive words that need a complement to mean something ("easy setup", not "easy").
define('easy simple fast quick quickly solid clear smooth sweet soft softer', 1, 'modifier', true);
define(
  'short slow weak hard difficult tricky fiddly fussy confusing expensive pricey cheap thin loose shorter slower weaker',
  -1,
  'modifier',
  true,
);
define('died dies dying stopped stops stopping broke fails failed failing failure', -1, 'modifier', false);
// Lukewarm: "it's fine" leans positive without praising anything.
define('fine ok okay decent', 0.5, 'generic', false);

/** Aspects of a product that shoppers praise or criticise; they anchor a phrase without a polarity. */
const ASPECTS = new Set(
  words(
    `price value quality packaging shipping delivery service support instructions setup assembly size design
    finish color colors scent smell fragrance battery cable cord plug adapter timer sound noise
    light lights lighting led glow brightness looks dimmer material texture weight build craftsmanship warranty
    refund replacement charging stand base lid switch button remote bulb pump motor fan filter`,
  ),
);

/** Function words and words too common in reviews to say anything ("really", "would", "bought"). */
const STOPWORDS = new Set(
  words(
    `a about above actually after again against ago all almost along already also although always am among an
    and another any anyone anything anyway anywhere are around as at away back be became because become been
    before being below besides better between beyond both but by can could did do does doing done down during
    each either else enough etc even ever every everyone everything exactly few for from further had has have
    having he her here hers herself him himself his how however i if in into is it its itself just least less
    let lets lot lots made make makes making many may maybe me might mine more most much must my myself near
    nearly need needed needs neither nor now of off often on once only onto or other others otherwise our ours
    ourselves out over own per perhaps please quite rather really right same several she should since so
    some somehow someone something sometimes somewhat soon still such than that the their theirs them
    themselves then there these they this those though through throughout thus to together too toward towards
    under until up upon us very via was we were what whatever when where whether which while who whole whom
    whose why will with within would yet you your yours yourself yourselves like well ok okay oh wow yes yeah
    lol tbh omg alot im ive id thats theres youre theyre ill super
    definately bit little tiny
    get gets getting got gotten go goes going gone went come comes came take takes took taken give gives gave
    given put puts keep keeps kept use used uses using buy buys bought buying order ordered ordering purchase
    purchased say says said tell tells told think thought know knew find found feel feels felt seem seems
    seemed looking want wanted wants try tried tries trying start started starts see saw
    seen sit sits sat run runs ran running work works worked working help helps helped arrived arrive arrives
    expected expect thing things stuff product item items piece one ones star stars review reviews reviewing
    update matter day days week weeks month months year years time times today tonight minute minutes hour hours
    two three four five six seven eight nine ten eleven twelve twenty hundred first second third half couple
    dozen`,
  ),
);

/** Words that turn the polarity of the next few words ("not loud", "isn't great", "no issues"). */
const NEGATORS = new Set(
  words(`not no never none nothing neither nor without zero hardly barely cannot cant dont doesnt didnt isnt wasnt
    wont wouldnt couldnt shouldnt arent werent havent hasnt aint`),
);
/** Words that soften what came just before them too ("pump noise is minimal"). */
const BACKWARD_NEGATORS = new Set(words('minimal negligible'));
/** Verbs that link a thing to what it is like ("the pump is quiet"). */
const COPULAS = new Set(
  words('is are was were be been being am seems seem seemed feels feel felt stays stayed remains'),
);
/** Words that end a clause: the words around them are not one phrase and may differ in tone. */
const CLAUSE_BREAKS = new Set(
  words('and but or so because though although however yet while whereas otherwise except than until unless'),
);
/** Spellings, forms and near-synonyms that mean the same thing, mapped to the form that is shown. */
const LEMMAS = new Map<string, string>([
  ...pairs('colour:color colours:colors cosy:cozy leds:led set-up:setup look:looks looked:looks'),
  // Comparatives share their adjective's phrase ("slower charging" is "slow charging").
  ...pairs('slower:slow louder:loud shorter:short weaker:weak quieter:quiet softer:soft brighter:bright noisier:noisy'),
  ...sameAs('packaging', 'packed packaged package packing'),
  // Nouns read better in a list than participles: "the leaks", "the pump failure".
  ...sameAs('leaks', 'leak leaked leaking'),
  ...sameAs('splashing', 'splash splashes splashed'),
  ...sameAs('scratches', 'scratch scratched'),
  ...sameAs('dents', 'dent dented'),
  ...sameAs('stains', 'stain stained'),
  ...sameAs('failure', 'died dies dying fails failed failing'),
  ...sameAs('stopping', 'stopped stops'),
  ...sameAs('breaking', 'broke breaks'),
  // Kinds of noise are one concern: "pump noise" gathers hums, gurgles and grinding.
  ...sameAs(
    'noise',
    'noises hum hums humming hummed buzz buzzing buzzes rattle rattles rattling grinding gurgle gurgles gurgling gurgled whine whining',
  ),
]);

function pairs(list: string): (readonly [string, string])[] {
  return words(list).map((pair) => {
    const [from = '', to = ''] = pair.split(':');
    return [from, to] as const;
  });
}

function sameAs(shown: string, list: string): (readonly [string, string])[] {
  return words(list).map((word) => [word, shown] as const);
}

type Token = {
  /** Lowercased as written. */
  word: string;
  /** Normalised form that groups plurals and other inflections. */
  stem: string;
  /** How it is shown in a phrase: as written, or the form its synonyms share. */
  shown: string;
  allCaps: boolean;
  /** May be part of a phrase. */
  content: boolean;
  /** May start or hold a phrase on its own (a descriptive word or an aspect). */
  anchor: 'standalone' | 'modifier' | null;
  /** Anchors only as a product aspect ("cable"), saying nothing good or bad by itself. */
  aspect: boolean;
  adjective: boolean;
  weight: number;
  negated: boolean;
};

type ReviewFacts = {
  index: number;
  rating: number;
  clauses: Token[][];
  /** From -1 (only negative words) to 1 (only positive ones); 0 without such words. */
  wordPolarity: number;
  mentionsGift: boolean;
};

/** `vocabulary` remembers how each written word reads, as reviews repeat the same words. */
function readReview(review: ReviewText, index: number, vocabulary: Map<string, Token>): ReviewFacts {
  const rating = Math.min(5, Math.max(1, review.rating));
  const clauses = splitClauses(`${review.title ?? ''}\n${review.content ?? ''}`).map((clause) =>
    readClause(clause, vocabulary),
  );
  let positive = 0;
  let negative = 0;
  for (const token of clauses.flat()) {
    if (token.weight > 0) positive += token.weight;
    else negative -= token.weight;
  }
  const wordPolarity = positive + negative === 0 ? 0 : (positive - negative) / (positive + negative);
  const mentionsGift = clauses.some((clause) => clause.some((token) => token.stem === 'gift'));
  return { index, rating, clauses, wordPolarity, mentionsGift };
}

/** The words of each clause: sentences and their parts between commas and conjunctions. */
function splitClauses(text: string): string[][] {
  const normalised = text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    // "set up", "set it up", "setting them up" and "set-up" are one thing: the setup.
    .replace(/\bset(?:ting)?(?:\s+(?:it|them))?(?:\s+|-)up\b/gi, 'setup');
  const clauses: string[][] = [];
  for (const part of normalised.split(
    /[.!?;:,()[\]{}"&+\u201c\u201d\u2026\n\r\t/]+|\s[-\u2013\u2014]+\s|[\u2013\u2014]/,
  )) {
    let current: string[] = [];
    for (const word of part.match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? []) {
      if (CLAUSE_BREAKS.has(word.toLowerCase())) {
        if (current.length > 0) clauses.push(current);
        current = [];
      } else current.push(word);
    }
    if (current.length > 0) clauses.push(current);
  }
  return clauses;
}

function readClause(written: string[], vocabulary: Map<string, Token>): Token[] {
  const tokens = written.map((word) => {
    let token = vocabulary.get(word);
    if (!token) {
      token = readToken(word);
      vocabulary.set(word, token);
    }
    // A copy: negation and "too" change a token where it stands.
    return { ...token };
  });
  for (const [i, token] of tokens.entries()) {
    const next = tokens[i + 1];
    // "no matter" and "not only" negate nothing.
    if (NEGATORS.has(token.word) && next?.word !== 'matter' && next?.word !== 'only') {
      for (const target of tokens.slice(i + 1, i + 1 + NEGATION_REACH)) target.negated = true;
    }
    if (BACKWARD_NEGATORS.has(token.word)) {
      for (const target of tokens.slice(Math.max(0, i - NEGATION_REACH), i)) target.negated = true;
    }
    if (token.word === 'too') markExcess(tokens, i);
    // "pretty loud" is an intensifier, not praise.
    if (token.word === 'pretty' && next && (next.weight !== 0 || next.adjective)) {
      token.weight = 0;
      token.content = false;
    }
  }
  for (const token of tokens) if (token.negated) token.weight = -token.weight;
  return tokens;
}

/** "too bright", "too much": the excess is a complaint even when the word itself is neutral. */
function markExcess(tokens: Token[], at: number) {
  const next = tokens[at + 1];
  if (!next) return;
  if (next.word === 'much' || next.word === 'many') {
    next.weight = -1;
    return;
  }
  if (!next.content || next.weight > 0) return;
  next.weight = -1;
  next.anchor ??= 'modifier';
  next.aspect = false;
  next.adjective = true;
}

function readToken(written: string): Token {
  const lower = written.toLowerCase();
  const word = lower.endsWith("'s") && !STOPWORDS.has(lower.replaceAll("'", '')) ? lower.slice(0, -2) : lower;
  const plain = word.replaceAll("'", '');
  const polar = LEXICON.get(word);
  const isNegator = NEGATORS.has(plain) || word.endsWith("n't");
  const content =
    !isNegator &&
    !word.includes("'") &&
    !STOPWORDS.has(word) &&
    polar?.role !== 'generic' &&
    !BACKWARD_NEGATORS.has(word) &&
    /^\p{L}[\p{L}'-]*$/u.test(word) &&
    word.length > 1 &&
    // Adverbs ("noticeably", "slightly") only colour the words they go with.
    !(word.endsWith('ly') && !polar && !ASPECTS.has(word));
  const lemma = LEMMAS.get(word) ?? word;
  return {
    word: isNegator ? 'not' : plain,
    stem: stem(lemma),
    shown: lemma === word ? plain : lemma,
    allCaps: written.length > 1 && written === written.toUpperCase() && written !== lower,
    content,
    anchor: polar && polar.role !== 'generic' ? polar.role : ASPECTS.has(lemma) ? 'standalone' : null,
    aspect: !polar && ASPECTS.has(lemma),
    adjective: polar?.adjective ?? false,
    weight: polar?.weight ?? 0,
    negated: false,
  };
}

/** A light English stemmer: enough to group "light", "lights" and "lighting", or "hum" and "humming". */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && /ie[sd]$/.test(w)) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ch|sh|ss|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing') && /[aeiouy]/.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed') && /[aeiouy]/.test(w.slice(0, -2)))
    w = undouble(w.slice(0, -2));
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([^aeiouylsz])\1$/.test(w) ? w.slice(0, -1) : w;
}

type Side = 'praise' | 'concern';

type PhraseStats = {
  key: string;
  stems: string[];
  /** Order of first appearance, the last tie-breaker. */
  firstSeen: number;
  /** Holds a descriptive word ("short cable"), not only an aspect ("cable"). */
  descriptive: boolean;
  /** How many of its words are anchors: "easy setup" has two, "soft fills trickle" one. */
  anchors: number;
  reviews: Record<Side, Set<number>>;
  ratings: Record<Side, number[]>;
  /** Ways of writing it, adjectives first ("soothing sound"), with how often each was seen. */
  spellings: Map<string, number>;
  allAdjectives: boolean;
};

type Phrase = { stats: PhraseStats; side: Side; count: number; text: string };

function collectPhrases(facts: readonly ReviewFacts[]): Map<string, PhraseStats> {
  const phrases = new Map<string, PhraseStats>();
  const casing = new Map<string, { caps: number; total: number }>();
  for (const fact of facts) {
    for (const clause of fact.clauses) {
      let score = 0;
      const content: { token: Token; position: number }[] = [];
      for (const [position, token] of clause.entries()) {
        score += token.weight;
        const seen = casing.get(token.word);
        if (seen) {
          seen.total++;
          if (token.allCaps) seen.caps++;
        } else casing.set(token.word, { caps: token.allCaps ? 1 : 0, total: 1 });
        if (token.content) content.push({ token, position });
      }
      for (let start = 0; start < content.length; start++) {
        const tokens: Token[] = [];
        let previous: number | null = null;
        let linked = false;
        for (const { token, position } of content.slice(start, start + MAX_PHRASE_WORDS)) {
          if (previous !== null && position - previous - 1 > MAX_GAP) break;
          linked ||= previous !== null && clause.slice(previous + 1, position).some((t) => COPULAS.has(t.word));
          previous = position;
          tokens.push(token);
          // One word alone must be a standalone anchor ("quiet"); longer phrases need any anchor.
          if (tokens.length === 1 ? token.anchor !== 'standalone' : !tokens.some((t) => t.anchor)) continue;
          const side = sideOf(tokens, score, fact.rating);
          if (side) record(phrases, tokens, side, fact, linked);
        }
      }
    }
  }
  for (const stats of phrases.values()) stats.spellings = withCasing(stats.spellings, casing);
  return phrases;
}

/** Whether this mention praises or criticises; null when it does neither or is negated ("no splashing"). */
function sideOf(tokens: Token[], clauseScore: number, rating: number): Side | null {
  if (tokens.some((token) => token.negated)) return null;
  const own = tokens.reduce((sum, token) => sum + token.weight, 0);
  const tone = own !== 0 ? own : clauseScore;
  if (tone > 0) return rating > CRITICAL_RATING ? 'praise' : null;
  if (tone < 0) return 'concern';
  return rating <= CRITICAL_RATING ? 'concern' : null;
}

/** `linked`: a verb such as "is" joins the words ("the sound is soothing"), so the adjective goes first. */
function record(phrases: Map<string, PhraseStats>, tokens: Token[], side: Side, fact: ReviewFacts, linked: boolean) {
  const stems = tokens.map((token) => token.stem).sort();
  if (stems.some((s, i) => s === stems[i - 1])) return;
  // "gurgling sound" is the noise itself, not noise and sound.
  if (stems.includes('nois') && stems.includes('sound')) return;
  const key = stems.join(' ');
  let stats = phrases.get(key);
  if (!stats) {
    stats = {
      key,
      stems,
      firstSeen: phrases.size,
      descriptive: false,
      anchors: tokens.filter((token) => token.anchor).length,
      reviews: { praise: new Set(), concern: new Set() },
      ratings: { praise: [], concern: [] },
      spellings: new Map(),
      allAdjectives: tokens.every((token) => token.adjective),
    };
    phrases.set(key, stats);
  }
  stats.descriptive ||= tokens.some((token) => token.anchor && !token.aspect);
  if (!stats.reviews[side].has(fact.index)) {
    stats.reviews[side].add(fact.index);
    stats.ratings[side].push(fact.rating);
  }
  // "the sound is soothing" reads as "soothing sound"; "boils fast" stays as it is.
  const ordered = linked
    ? [...tokens.filter((token) => token.adjective), ...tokens.filter((token) => !token.adjective)]
    : tokens;
  const spelling = ordered.map((token) => token.shown).join(' ');
  stats.spellings.set(spelling, (stats.spellings.get(spelling) ?? 0) + 1);
}

/** Acronyms keep their capitals ("LED", "USB") when most reviewers write them so. */
function withCasing(spellings: Map<string, number>, casing: Map<string, { caps: number; total: number }>) {
  const cased = new Map<string, number>();
  for (const [spelling, count] of spellings) {
    const shown = spelling
      .split(' ')
      .map((word) => {
        const seen = casing.get(word);
        const acronym = seen && word.length <= 4 && !LEXICON.has(word) && seen.caps * 2 > seen.total;
        return acronym ? word.toUpperCase() : word;
      })
      .join(' ');
    cased.set(shown, (cased.get(shown) ?? 0) + count);
  }
  return cased;
}

function selectPhrases(phrases: Map<string, PhraseStats>, side: Side, reviewCount: number): Phrase[] {
  const other: Side = side === 'praise' ? 'concern' : 'praise';
  // Said in at least two reviews (one when there is only one), and by a share of a large product's
  // reviews; a bare aspect ("cable") needs twice that share to count as a common point.
  const support = (share: number) => (reviewCount === 1 ? 1 : Math.max(2, Math.ceil(reviewCount * share)));
  const candidates = new Map<string, PhraseStats>();
  for (const stats of phrases.values()) {
    const count = stats.reviews[side].size;
    const needed = support(stats.descriptive ? 0.02 : 0.04);
    // A phrase said once (a product with one review) must be all anchors: "easy setup", not "soft fills".
    const specific = count > 1 || stats.anchors === stats.stems.length;
    if (specific && count >= needed && count > stats.reviews[other].size) candidates.set(stats.key, stats);
  }
  // Each phrase listed under every shorter phrase it contains: "handy USB cable" under "handy".
  const supersets = new Map<string, PhraseStats[]>();
  for (const stats of candidates.values()) {
    const full = 2 ** stats.stems.length - 1;
    for (let mask = 1; mask < full; mask++) {
      const subset = stats.stems.filter((_, i) => (mask >> i) & 1).join(' ');
      const listed = supersets.get(subset);
      if (listed) listed.push(stats);
      else supersets.set(subset, [stats]);
    }
  }
  const countOf = (stats: PhraseStats) => stats.reviews[side].size;
  const resolved = new Map<string, PhraseStats>();
  for (const stats of candidates.values()) {
    let current = stats;
    for (;;) {
      const longer = (supersets.get(current.key) ?? [])
        .filter((s) => countOf(s) >= EXTEND_RATIO * countOf(current) && (countOf(s) > 1 || s.anchors > current.anchors))
        .sort(byCountThenOrder(countOf))[0];
      if (!longer) break;
      current = longer;
    }
    resolved.set(current.key, current);
  }
  const chosen: Phrase[] = [];
  const used = new Set<string>();
  for (const stats of [...resolved.values()].sort(byCountThenOrder(countOf))) {
    if (chosen.length === MAX_PHRASES) break;
    if (stats.stems.some((s) => used.has(s))) continue;
    for (const s of stats.stems) used.add(s);
    chosen.push({ stats, side, count: countOf(stats), text: spellingOf(stats) });
  }
  return chosen;
}

/** More reviews first; then phrases made more of anchors, then longer ones; then the one seen first. */
function byCountThenOrder(countOf: (stats: PhraseStats) => number) {
  return (a: PhraseStats, b: PhraseStats) =>
    countOf(b) - countOf(a) ||
    b.anchors / b.stems.length - a.anchors / a.stems.length ||
    b.stems.length - a.stems.length ||
    a.firstSeen - b.firstSeen;
}

function spellingOf(stats: PhraseStats): string {
  let best = '';
  let bestCount = 0;
  for (const [spelling, count] of stats.spellings) {
    if (count > bestCount) [best, bestCount] = [spelling, count];
  }
  return best;
}

function label(phrase: Phrase): string {
  return `${capitalise(phrase.text)} (${phrase.count} review${phrase.count === 1 ? '' : 's'})`;
}

function judgeSentiment(
  averageRating: number,
  recommendationScore: number,
  wordPolarity: number,
): ReviewAnalysis['overallSentiment'] {
  // The ratings decide; the words move a product that sits within half a star of a threshold.
  if (averageRating >= 3.75 && recommendationScore >= 50)
    return wordPolarity < -0.25 && averageRating < 4.25 ? 'neutral' : 'positive';
  if (averageRating <= 2.5) return wordPolarity > 0.25 && averageRating > 2 ? 'neutral' : 'negative';
  if (averageRating >= 3.25 && recommendationScore >= 50 && wordPolarity >= 0.5) return 'positive';
  if (averageRating <= 3 && wordPolarity <= -0.5) return 'negative';
  return 'neutral';
}

type SummaryInput = {
  n: number;
  recommended: number;
  recommendationScore: number;
  averageRating: number;
  praises: Phrase[];
  concerns: Phrase[];
};

function summarise(input: SummaryInput): string {
  const themes = themeSentence(input);
  return themes ? `${recommendationSentence(input)} ${themes}` : recommendationSentence(input);
}

function recommendationSentence({ n, recommended, recommendationScore, averageRating }: SummaryInput): string {
  if (n === 1) {
    const rating = formatRating(averageRating);
    const stars = `${rating} star${rating === '1' ? '' : 's'}`;
    return recommended === 1
      ? `Its only reviewer recommends it, rating it ${stars}.`
      : `Its only reviewer does not recommend it, rating it ${stars}.`;
  }
  if (recommended === n) return n === 2 ? 'Both reviewers recommend it.' : `All ${n} reviewers recommend it.`;
  if (recommended === 0)
    return n === 2 ? 'Neither reviewer recommends it.' : `None of the ${n} reviewers recommend it.`;
  if (n === 2) return 'One of the two reviewers recommends it.';
  if (recommended * 2 === n) return `Half of the ${n} reviewers recommend it.`;
  if (recommended * 2 > n) return `Most of the ${n} reviewers recommend it (${recommendationScore}%).`;
  const verb = recommended === 1 ? 'recommends' : 'recommend';
  return `Only ${recommended} of the ${n} reviewers ${verb} it (${recommendationScore}%).`;
}

/** What shoppers like and dislike, the side that carries the verdict first. */
function themeSentence({ n, praises, concerns, recommendationScore }: SummaryInput): string {
  const liked = praises.slice(0, 2);
  const disliked = concerns.slice(0, 2);
  const negativeFirst = recommendationScore < 50;
  if (n === 1) {
    if (liked.length === 0 && disliked.length === 0) return '';
    if (liked.length === 0) return `The review ${negativeFirst ? 'complains about' : 'mentions'} ${listOf(disliked)}.`;
    if (negativeFirst) {
      const rest = disliked.length ? ` but complains about ${listOf(disliked)}` : '';
      return `The review likes ${listOf(liked)}${rest}.`;
    }
    return `The review praises ${listOf(liked)}${disliked.length ? ` but mentions ${listOf(disliked)}` : ''}.`;
  }
  const some = (phrases: Phrase[], verb: string) => `${quantity(phrases, n, verb)} ${listOf(phrases)}`;
  if (negativeFirst) {
    if (disliked.length === 0) return liked.length ? `${capitalise(some(liked, 'like'))}.` : '';
    return `Shoppers complain about ${listOf(disliked)}${liked.length ? `; ${some(liked, 'like')}` : ''}.`;
  }
  if (liked.length === 0) return disliked.length ? `${capitalise(some(disliked, 'mention'))}.` : '';
  return `Shoppers praise ${listOf(liked)}${disliked.length ? `; ${some(disliked, 'mention')}` : ''}.`;
}

/** "a few mention", "some like": how many of the reviewers say the most said of these phrases. */
function quantity(phrases: Phrase[], n: number, verb: string): string {
  const k = Math.max(...phrases.map((phrase) => phrase.count));
  if (k === 1) return `one shopper ${verb}s`;
  if (k >= n) return n === 2 ? `both ${verb}` : `all ${verb}`;
  if (k * 4 <= n) return `a few ${verb}`;
  if (k * 2 <= n) return `some ${verb}`;
  return `many ${verb}`;
}

/**
 * How a phrase fits in a sentence: a thing ("soothing sound"), a quality ("quiet", "flimsy") or
 * what the product does ("boils fast": a word and then a describing word that came after it).
 */
function grammarOf(phrase: Phrase): 'thing' | 'quality' | 'action' {
  if (phrase.stats.allAdjectives) return 'quality';
  const shown = phrase.text.split(' ');
  const describes = (word: string | undefined) => (word ? (LEXICON.get(word)?.adjective ?? false) : false);
  return describes(shown.at(-1)) && !describes(shown[0]) ? 'action' : 'thing';
}

/** "the soothing sound and how quiet and relaxing it is"; "the leaks and it being flimsy". */
function listOf(phrases: Phrase[]): string {
  const praised = phrases[0]?.side === 'praise';
  const parts = phrases.flatMap((phrase) => {
    const grammar = grammarOf(phrase);
    if (grammar === 'thing') return [`the ${phrase.text}`];
    return grammar === 'action' ? [`how it ${phrase.text}`] : [];
  });
  const qualities = phrases.filter((phrase) => grammarOf(phrase) === 'quality').map((phrase) => phrase.text);
  if (qualities.length > 0)
    parts.push(praised ? `how ${qualities.join(' and ')} it is` : `it being ${qualities.join(' and ')}`);
  return parts.join(' and ');
}

/** "mentioning the pump noise", "calling it flimsy", "saying it charges slow". */
function mentioning(phrase: Phrase): string {
  const grammar = grammarOf(phrase);
  if (grammar === 'thing') return `mentioning the ${phrase.text}`;
  return grammar === 'quality' ? `calling it ${phrase.text}` : `saying it ${phrase.text}`;
}

/** Facts counted from the data, most telling first: the rating, its spread, the top concern, gifts. */
function findInsights({
  facts,
  averageRating,
  concerns,
}: {
  facts: readonly ReviewFacts[];
  averageRating: number;
  concerns: Phrase[];
}): string[] {
  const n = facts.length;
  const average = formatRating(averageRating);
  const insights = [
    n === 1
      ? `Rated ${average} out of 5 by its only reviewer`
      : `Rated ${average} out of 5 on average by ${n} reviewers`,
  ];
  const high = facts.filter((fact) => fact.rating >= 4.5).length;
  const low = facts.filter((fact) => fact.rating <= 2).length;
  const split = n >= 3 && high * 4 >= n && low * 4 >= n;
  if (split)
    insights.push(
      `Opinions are split: ${high} of ${n} reviews ${give(high)} 4.5 stars or more, ${low} ${give(low)} 2 or fewer`,
    );
  else if (n >= 3 && high > 0) insights.push(`${high} of ${n} reviews ${give(high)} 4.5 stars or more`);
  const concern = concerns[0];
  if (concern && n >= 3) {
    const concernAverage = mean(concern.stats.ratings.concern);
    const what = mentioning(concern);
    // Worth saying how much a concern weighs only when it pulls the rating down.
    if (averageRating - concernAverage >= 0.3)
      insights.push(`Reviews ${what} average ${formatRating(concernAverage)} stars, against ${average} overall`);
    // "mentioning" becomes "mention": "3 of 4 reviews mention the leaks".
    else insights.push(`${concern.count} of ${n} reviews ${what.replace(/^(\w+)ing\b/, '$1')}`);
  }
  // Gifts are worth a line only when a fair share of buyers bought it as one.
  const gifts = facts.filter((fact) => fact.mentionsGift).length;
  if (gifts >= 2 && gifts * 10 >= n) insights.push(`${gifts} of ${n} reviews mention it as a gift`);
  if (n >= 3 && !split)
    insights.push(
      low > 0 ? `${low} of ${n} reviews ${give(low)} 2 stars or fewer` : `No review gives 2 stars or fewer`,
    );
  if (insights.length < 2) insights.push(`Based on ${n === 1 ? 'a single review' : `${n} reviews`} so far`);
  return insights.slice(0, 4);
}

function give(count: number): string {
  return count === 1 ? 'gives' : 'give';
}

function formatRating(rating: number): string {
  const rounded = Math.round(rating * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

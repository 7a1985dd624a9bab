import { createRequire } from 'node:module';
import type { RegExpMatcher } from 'obscenity';
import type { ModerationResult } from './reviews.tables.ts';

/** The reasons the rules give, in the order they are checked. Short sentences an admin reads as they are. */
export const moderationReasons = {
  offensive: 'Contains offensive language',
  contact: 'Contains a link or contact details',
  repeatedCharacters: 'Looks like spam: repeated characters',
  capitals: 'Looks like spam: written in capitals',
  repeatedWords: 'Looks like spam: the same word repeated',
} as const;

/**
 * The shop's built-in review moderation (and the fallback when the AI model fails): rules over the
 * title and the text together. A flagged review waits for the back office; nothing is rejected by
 * the rules alone, so they lean towards catching spam over letting it through.
 *
 * - Offensive language: English profanity from `obscenity`'s maintained list, which also sees
 *   through spacing tricks, look-alike characters and letter repeats ("f*ck", "sh1t", "fuuuck"),
 *   and leaves words that merely contain one alone ("Scunthorpe", "classic", "assume").
 * - Links or contact details: URLs, `www.`, domain names (`x.com`, `deals.shop`, "site dot com"),
 *   email addresses, social handles (`@name`) and phone numbers (9 to 15 digits).
 * - Spam: a letter or punctuation mark 5 times or more in a row ("aaaaa", "!!!!!"; emoji and
 *   symbols such as ⭐⭐⭐⭐⭐ are fine), shouting (more than 12 letters, three quarters of them
 *   capitals), and one word said over and over (4 times in a row, or half of a text of 8 words or more).
 *
 * The text is normalised first (NFKC, invisible format characters removed), so full-width letters
 * and zero-width spaces do not hide a link.
 */
export function moderateReview({ title, content }: { title: string; content: string }): ModerationResult {
  const text = normalise(`${title}\n${content}`);
  const reasons: string[] = [];
  if (profanityMatcher().hasMatch(text)) reasons.push(moderationReasons.offensive);
  if (hasContactDetails(text)) reasons.push(moderationReasons.contact);
  if (REPEATED_CHARACTER.test(text)) reasons.push(moderationReasons.repeatedCharacters);
  if (isShouting(text)) reasons.push(moderationReasons.capitals);
  if (repeatsOneWord(text)) reasons.push(moderationReasons.repeatedWords);
  return { flagged: reasons.length > 0, reasons };
}

/**
 * Loaded and built by the first review moderated, not when the server starts: the package's
 * modules took 40 ms of every cold start (issue 15), and building compiles the whole list.
 * `require` keeps the rules synchronous.
 */
let profanity: RegExpMatcher | null = null;
function profanityMatcher(): RegExpMatcher {
  if (!profanity) {
    const { englishDataset, englishRecommendedTransformers, RegExpMatcher } = createRequire(import.meta.url)(
      'obscenity',
    ) as typeof import('obscenity');
    const englishTerms = englishDataset.build();
    profanity = new RegExpMatcher({
      ...englishTerms,
      // Ordinary words the list would take for profanity.
      whitelistedTerms: [...(englishTerms.whitelistedTerms ?? []), 'shiitake', 'cum laude', 'penistone'],
      ...englishRecommendedTransformers,
    });
  }
  return profanity;
}

function normalise(text: string): string {
  // \p{Cf}: zero-width spaces, joiners, direction marks and other invisible format characters.
  return text.normalize('NFKC').replace(/\p{Cf}/gu, '');
}

/**
 * Top-level domains that spammers use most, and the generic ones: a word ending in one reads as a
 * domain. Those that are common English words on their own (it, in, me, us...) are left out, as a
 * sentence run on after a missing space ("lamp.it glows") would read as one.
 */
const TOP_LEVEL_DOMAINS = `com net org info biz io co ly gg tv app dev shop store online site website xyz top club link
  click live page buzz vip win bid loan cc ws su ru cn uk de fr nl eu ca au br pl tk ml ga cf gq example`
  .trim()
  .split(/\s+/);
/** Written in lower case or in capitals: a capitalised one ("Top") starts a sentence after a missing space. */
const TLD = [...TOP_LEVEL_DOMAINS, ...TOP_LEVEL_DOMAINS.map((tld) => tld.toUpperCase())].join('|');

const CONTACT_PATTERNS = [
  // A URL with a scheme, or www.
  /\b(?:https?|ftp):\/\//i,
  /\bwww\s*\.\s*[\p{L}\p{N}-]/iu,
  // An email address.
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/u,
  // A domain name: a word, a dot and a known top-level domain ("x.com", "shop.example.co.uk"). A
  // following letter or digit means a word ran on after a missing space ("it.It").
  new RegExp(`(?<![\\p{L}\\p{N}@.-])[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:${TLD})(?![\\p{L}\\p{N}])`, 'u'),
  // A domain spelt out: "deals dot com", "deals (dot) net".
  new RegExp(`(?<![\\p{L}\\p{N}-])[\\p{L}\\p{N}-]+\\s*[([]?\\s*dot\\s*[)\\]]?\\s*(?:${TLD})\\b`, 'iu'),
  // A social handle: "@name" at the start of a word.
  /(?:^|[\s(])@[\p{L}_][\p{L}\p{N}_.]{2,}/u,
];

/** A phone number: 9 to 15 digits, optionally after a +, separated by spaces, dots, dashes or parentheses. */
const PHONE_CANDIDATE = /\+?\(?\d(?:[\s.()-]{0,2}\d){8,}/g;

function hasContactDetails(text: string): boolean {
  if (CONTACT_PATTERNS.some((pattern) => pattern.test(text))) return true;
  for (const match of text.matchAll(PHONE_CANDIDATE)) {
    const digits = match[0].replace(/\D/g, '').length;
    if (digits >= 9 && digits <= 15) return true;
  }
  return false;
}

/**
 * The same letter or punctuation mark 5 times or more in a row (case-insensitively). Digits
 * ("100000"), whitespace, emoji and other symbols (⭐⭐⭐⭐⭐) are left out.
 */
const REPEATED_CHARACTER = /([\p{L}\p{M}\p{P}])\1{4,}/iu;

const SHOUTING_MIN_LETTERS = 12;
const SHOUTING_SHARE = 0.75;

/** More than 12 letters that have a case, three quarters of them capitals. Scripts without case never shout. */
function isShouting(text: string): boolean {
  const upper = text.match(/\p{Lu}/gu)?.length ?? 0;
  const lower = text.match(/\p{Ll}/gu)?.length ?? 0;
  const cased = upper + lower;
  return cased > SHOUTING_MIN_LETTERS && upper >= cased * SHOUTING_SHARE;
}

const REPEAT_IN_A_ROW = 4;
const REPEAT_SHARE_MIN_WORDS = 8;

/** One word 4 times in a row ("buy buy buy buy"), or half of the words of a text of 8 words or more. */
function repeatsOneWord(text: string): boolean {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? []) as string[];
  let run = 1;
  for (let i = 1; i < words.length; i++) {
    run = words[i] === words[i - 1] ? run + 1 : 1;
    if (run >= REPEAT_IN_A_ROW) return true;
  }
  if (words.length < REPEAT_SHARE_MIN_WORDS) return false;
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return Math.max(...counts.values()) * 2 >= words.length;
}

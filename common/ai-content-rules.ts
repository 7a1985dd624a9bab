/**
 * The AI Content Generator's rules (back-office spec 2, 3, 5, 8 and 9), zod-free so that the
 * admin app's modal and the server apply the same ones.
 */

/** Spec 9: the tone options, in the spec's order (the first is the default). */
export const aiTones = [
  'professional',
  'casual',
  'enthusiastic',
  'technical',
  'luxury',
  'friendly',
  'minimalist',
] as const;
export type AiTone = (typeof aiTones)[number];
export const DEFAULT_AI_TONE: AiTone = 'professional';

/** Spec 9: the fields the generator can write, in the spec's order. */
export const aiFields = ['title', 'description', 'features', 'tags', 'seo'] as const;
export type AiField = (typeof aiFields)[number];

/** What the modal labels each field and tone with. */
export const aiFieldLabels: Record<AiField, string> = {
  title: 'Title',
  description: 'Description',
  features: 'Features',
  tags: 'Tags',
  seo: 'SEO metadata',
};
export const aiToneLabels: Record<AiTone, string> = {
  professional: 'Professional',
  casual: 'Casual',
  enthusiastic: 'Enthusiastic',
  technical: 'Technical',
  luxury: 'Luxury',
  friendly: 'Friendly',
  minimalist: 'Minimalist',
};

export type AiPreset = { id: string; label: string; prompt: string; fields: readonly AiField[] };

/** Spec 9: the five presets, in the spec's order; the first (Complete Product Info) is the default. */
export const aiPresets: readonly AiPreset[] = [
  {
    id: 'complete',
    label: 'Complete Product Info',
    prompt:
      'Write complete product information for this product: a clear, honest title, an engaging description of a few short paragraphs, the key features as short benefit lines, relevant tags, and SEO metadata.',
    fields: aiFields,
  },
  {
    id: 'description',
    label: 'Description Only',
    prompt:
      'Write an engaging product description of a few short paragraphs: what the product is, how it feels to use, and the details a shopper needs (size, materials, what is in the box).',
    fields: ['description'],
  },
  {
    id: 'features-tags',
    label: 'Features & Tags',
    prompt:
      'List the key features as short benefit lines (what each detail does for the shopper), and give relevant tags a shopper would search for.',
    fields: ['features', 'tags'],
  },
  {
    id: 'seo',
    label: 'SEO Optimization',
    prompt:
      'Write a search-friendly title and SEO metadata: a meta title of at most 60 characters, a meta description of at most 160 characters that invites the click, and the keywords shoppers search for.',
    fields: ['title', 'seo'],
  },
  {
    id: 'marketing',
    label: 'Marketing Copy',
    prompt:
      'Write persuasive marketing copy: a title that stands out, a description that tells the product’s story and the moment it is made for, and features that sell its benefits. Stay truthful to the product’s facts.',
    fields: ['title', 'description', 'features'],
  },
];
export const DEFAULT_AI_PRESET = aiPresets[0] as AiPreset;

/** Spec 5 and 8: the generator's messages. */
export const aiContentMessages = {
  noFields: 'Please select at least one field to generate',
  invalidFormat: 'AI returned invalid format. Please try again.',
  noProductInfo: 'Fetch product info first',
  generationFailed: 'AI generation failed',
  requestFailed: 'Failed to generate content',
} as const;

/** Bounds of the request (the custom prompt, the optional audience and focus keywords). */
export const AI_PROMPT_MAX = 2000;
export const AI_AUDIENCE_MAX = 200;
export const AI_KEYWORDS_MAX = 300;
/** Spec 9: the first 10 marketplace images are used; the generator looks at as many. */
export const AI_IMAGES_MAX = 10;
export const AI_IMAGE_URL_MAX = 2048;

/** Bounds of the answer: search engines show about 60 and 160 characters of a title and description. */
export const SEO_TITLE_MAX = 60;
export const SEO_DESCRIPTION_MAX = 160;
export const AI_TITLE_MAX = 120;
export const AI_FEATURES_MAX = 8;
export const AI_TAGS_MAX = 12;
export const AI_SEO_KEYWORDS_MAX = 10;

/** An image the generator may be given: an https URL or a path on this site ('/media/…'). */
export function isAiImageUrl(value: string): boolean {
  if (value.length > AI_IMAGE_URL_MAX) return false;
  if (value.startsWith('/')) return !value.startsWith('//') && !/[\s\\]/.test(value);
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

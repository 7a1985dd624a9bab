import * as z from 'zod/mini';
import {
  AI_AUDIENCE_MAX,
  AI_IMAGES_MAX,
  AI_KEYWORDS_MAX,
  AI_PROMPT_MAX,
  aiFields,
  aiTones,
  DEFAULT_AI_TONE,
  isAiImageUrl,
} from '../../ai-content-rules.ts';
import {
  CATEGORY_NAME_MAX,
  PRODUCT_CATEGORIES_MAX,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_LIST_ITEM_MAX,
  PRODUCT_LIST_MAX,
  PRODUCT_TITLE_MAX,
} from '../../product-rules.ts';

export const AiField = z.enum(aiFields);
export const AiTone = z.enum(aiTones);

const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
const list = (itemMax: number, max: number) =>
  z.array(text(itemMax)).check(z.maxLength(max, `must have at most ${max} entries`));

/** What the form holds now (spec 3, AI request: existingData); blank rows are allowed and ignored. */
export const AiExistingData = z.object({
  title: z._default(text(PRODUCT_TITLE_MAX), ''),
  description: z._default(text(PRODUCT_DESCRIPTION_MAX), ''),
  features: z._default(list(PRODUCT_LIST_ITEM_MAX, PRODUCT_LIST_MAX), []),
  tags: z._default(list(PRODUCT_LIST_ITEM_MAX, PRODUCT_LIST_MAX), []),
  categories: z._default(list(CATEGORY_NAME_MAX, PRODUCT_CATEGORIES_MAX), []),
});
export type AiExistingData = z.infer<typeof AiExistingData>;

/**
 * The AI request (spec 3): the prompt, the fields to write (none is refused with the spec's
 * sentence by the route), the tone, the optional audience and focus keywords, whether to look at
 * the images and use the form's data, the images (https URLs or this site's paths) and the
 * form's data. outputFormat is always 'json'.
 */
export const AiContentRequest = z.object({
  prompt: z._default(text(AI_PROMPT_MAX), ''),
  fields: z.array(AiField).check(z.maxLength(aiFields.length, `must have at most ${aiFields.length} entries`)),
  tone: z._default(AiTone, DEFAULT_AI_TONE),
  targetAudience: z._default(text(AI_AUDIENCE_MAX), ''),
  keywords: z._default(text(AI_KEYWORDS_MAX), ''),
  useImages: z._default(z.boolean(), true),
  useExistingData: z._default(z.boolean(), true),
  imageUrls: z._default(
    z
      .array(z.string().check(z.refine(isAiImageUrl, 'must be an https URL or a path on this site')))
      .check(z.maxLength(AI_IMAGES_MAX, `must have at most ${AI_IMAGES_MAX} entries`)),
    [],
  ),
  existingData: z.optional(AiExistingData),
  outputFormat: z._default(z.literal('json'), 'json'),
});
export type AiContentRequest = z.infer<typeof AiContentRequest>;
export type AiContentRequestInput = z.input<typeof AiContentRequest>;

export const AiSeo = z.object({
  metaTitle: z.string(),
  metaDescription: z.string(),
  keywords: z.array(z.string()),
});

/** The generated content (spec 3, AI response): only the fields asked for. */
export const AiContent = z.object({
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  features: z.optional(z.array(z.string())),
  tags: z.optional(z.array(z.string())),
  seo: z.optional(AiSeo),
});
export type AiContent = z.infer<typeof AiContent>;

export const AiContentResponse = z.object({ content: AiContent });

export const aiExtractForProduct = {
  method: 'POST',
  path: '/api/aliexpress/ai-extract/:productId',
  params: z.object({
    productId: z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be a product id (16 hex characters)')),
  }),
  body: AiContentRequest,
  response: AiContentResponse,
} as const;

export const aiExtractForMarketplaceProduct = {
  method: 'POST',
  path: '/api/aliexpress/ai-extract-by-ali/:aliId',
  params: z.object({
    aliId: z.string().check(z.regex(/^\d{1,20}$/, 'must be a marketplace product id (digits)')),
  }),
  body: AiContentRequest,
  response: AiContentResponse,
} as const;

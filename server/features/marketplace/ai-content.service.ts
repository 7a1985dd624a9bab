import { asc, eq } from 'drizzle-orm';
import { AI_IMAGES_MAX, aiContentMessages } from '#common/ai-content-rules.ts';
import type { AiContent, AiContentRequest, AiExistingData } from '#common/contracts/admin/ai-content.ts';
import type { AiProvider } from '#server/adapters/ai/ai-provider.ts';
import { type Marketplace, MarketplaceError } from '#server/adapters/marketplace/marketplace.ts';
import type { Db } from '#server/db/client.ts';
import {
  categories,
  productCategories,
  productImages,
  products,
  skuVariants,
} from '#server/features/catalog/catalog.tables.ts';
import { AppError, invalid, notFound } from '#server/http/errors.ts';
import type { ProductFacts } from './ai-content.built-in.ts';
import { finishCopy, plainParagraphs, productCopyTask } from './ai-content.task.ts';

export type AiContentDeps = {
  db: Db;
  ai: AiProvider;
  marketplace: Pick<Marketplace, 'getProduct'>;
  /** The shop's address: pictures at this site's paths are shown to a model through it (https only). */
  publicUrl: string;
  log: (message: string, error?: unknown) => void;
};

/**
 * The AI Content Generator's server side (spec 7: POST /api/aliexpress/ai-extract/{productId} and
 * /ai-extract-by-ali/{aliId}): the product's facts from the shop's catalogue or the marketplace,
 * the form's data on top when asked, the copy from the AI (or the built-in writer), and only the
 * asked fields back. Nothing is stored: the admin applies the content in the form and saves it there.
 */
export function createAiContentService({ db, ai, marketplace, publicUrl, log }: AiContentDeps) {
  /** Copy for a product of the shop, from its record. */
  async function forProduct(productId: string, request: AiContentRequest): Promise<AiContent> {
    checkFields(request);
    const [product] = await db.select().from(products).where(eq(products.id, productId));
    if (!product) throw notFound('Product not found');
    const [names, variants, images] = await Promise.all([
      db
        .select({ name: categories.name })
        .from(productCategories)
        .innerJoin(categories, eq(categories.id, productCategories.categoryId))
        .where(eq(productCategories.productId, productId))
        .orderBy(asc(productCategories.position)),
      db
        .select({ name: skuVariants.name, isActive: skuVariants.isActive })
        .from(skuVariants)
        .where(eq(skuVariants.productId, productId))
        .orderBy(asc(skuVariants.position)),
      db
        .select({ url: productImages.url })
        .from(productImages)
        .where(eq(productImages.productId, productId))
        .orderBy(asc(productImages.position))
        .limit(AI_IMAGES_MAX),
    ]);
    const facts: ProductFacts = {
      title: product.title,
      description: product.description,
      features: product.features,
      tags: product.tags,
      categories: names.map((row) => row.name),
      specifications: product.specifications,
      variants: variants.filter((variant) => variant.isActive).map((variant) => variant.name),
      price: product.price,
    };
    return generate(
      facts,
      request,
      images.map((image) => image.url),
    );
  }

  /** Copy for a marketplace product (the Add Product modal, before the product exists), from its listing. */
  async function forMarketplaceProduct(aliId: string, request: AiContentRequest): Promise<AiContent> {
    checkFields(request);
    let listing: Awaited<ReturnType<Marketplace['getProduct']>>;
    try {
      listing = await marketplace.getProduct(aliId);
    } catch (error) {
      if (error instanceof MarketplaceError && (error.code === 'not_found' || error.code === 'not_available')) {
        throw notFound('Product not found on the marketplace');
      }
      log(`AI content: the marketplace product ${aliId} could not be read`, error);
      // Spec 8's words for a marketplace call that failed.
      throw new AppError(502, 'marketplace_failed', 'Failed to fetch product info');
    }
    const prices = listing.variants.map((variant) => variant.salePrice ?? variant.price);
    const facts: ProductFacts = {
      title: listing.title,
      // The seller's HTML as plain paragraphs: the model reads text, not markup.
      description: plainParagraphs(listing.descriptionHtml),
      features: [],
      tags: [],
      categories: [],
      specifications: listing.specifications,
      variants: listing.variants.map((variant) => variant.name),
      price: prices.length ? Math.min(...prices) : null,
    };
    return generate(facts, request, listing.imageUrls);
  }

  async function generate(facts: ProductFacts, request: AiContentRequest, sourceImages: string[]) {
    const product = request.useExistingData && request.existingData ? withFormData(facts, request.existingData) : facts;
    const imageUrls = request.useImages
      ? absoluteHttps(request.imageUrls.length ? request.imageUrls : sourceImages).slice(0, AI_IMAGES_MAX)
      : [];
    try {
      const copy = await ai.run(productCopyTask, {
        request: {
          prompt: request.prompt,
          fields: request.fields,
          tone: request.tone,
          targetAudience: request.targetAudience,
          keywords: request.keywords,
        },
        product,
        imageUrls,
      });
      return finishCopy(copy, request.fields);
    } catch (error) {
      // The provider falls back to the built-in copy itself: only a fault of ours lands here.
      log('AI content: the copy could not be written', error);
      throw new AppError(502, 'ai_failed', aiContentMessages.generationFailed);
    }
  }

  /** Pictures a model can fetch: https URLs, and this site's paths when the site is served over https. */
  function absoluteHttps(urls: readonly string[]): string[] {
    const site = publicUrl.startsWith('https://') ? publicUrl.replace(/\/+$/, '') : null;
    const resolved = urls.map((url) => (url.startsWith('/') && !url.startsWith('//') ? (site ? site + url : '') : url));
    return [...new Set(resolved.filter((url) => url.startsWith('https://')))];
  }

  return { forProduct, forMarketplaceProduct };
}

export type AiContentService = ReturnType<typeof createAiContentService>;

/** Spec 5: no field chosen is refused with the spec's sentence. */
function checkFields(request: AiContentRequest) {
  if (request.fields.length === 0) throw invalid('fields', aiContentMessages.noFields);
}

/** The form's current data (the admin's latest edits) before the stored or fetched facts; blank rows ignored. */
function withFormData(facts: ProductFacts, form: AiExistingData): ProductFacts {
  const filled = (items: string[]) => items.map((item) => item.trim()).filter(Boolean);
  const features = filled(form.features);
  const tags = filled(form.tags);
  const names = filled(form.categories);
  return {
    ...facts,
    title: form.title.trim() || facts.title,
    description: form.description.trim() || facts.description,
    features: features.length ? features : facts.features,
    tags: tags.length ? tags : facts.tags,
    categories: names.length ? names : facts.categories,
  };
}

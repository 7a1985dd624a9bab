import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  fetchMarketplaceImages,
  getMarketplaceProductInfo,
  getMarketplaceProductSkus,
  uploadMarketplaceImage,
} from '#common/contracts/admin/marketplace.ts';
import { extractMarketplaceId } from '#common/product-rules.ts';
import {
  ImageDownloadError,
  type Marketplace,
  MarketplaceError,
  type MarketplaceProduct,
} from '#server/adapters/marketplace/marketplace.ts';
import { type ObjectStorage, ObjectStorageError } from '#server/adapters/storage/object-storage.ts';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { productImageKeyBase, storeProductImage } from '#server/features/catalog/product-images.ts';
import { AppError, invalid, notFound } from '#server/http/errors.ts';
import { fetchedVariant, imageRefusal, marketplaceFailure, productInfo } from './marketplace-info.ts';

/**
 * The Add and Edit Product modals' marketplace calls (spec 7, Marketplace; permission
 * uploadProducts), inside the admin scope of app.ts: product info and SKUs, the marketplace
 * pictures of a product, and one picture imported into the shop's storage.
 */
export const marketplaceAdminRoutes: FastifyPluginAsyncZod<{
  db: Db;
  marketplace: Marketplace;
  storage: ObjectStorage;
}> = async (app, { db, marketplace, storage }) => {
  const tags = ['admin'];
  const config = { access: 'uploadProducts' as const };

  async function lookUp(id: string, log: { warn(data: object, message: string): void }): Promise<MarketplaceProduct> {
    try {
      return await marketplace.getProduct(id);
    } catch (error) {
      if (!(error instanceof MarketplaceError)) throw error;
      log.warn({ code: error.code, reason: error.message, requestId: error.requestId }, 'marketplace lookup failed');
      throw marketplaceFailure(error, id);
    }
  }

  app.get(
    getMarketplaceProductInfo.path,
    {
      config,
      schema: {
        tags,
        params: getMarketplaceProductInfo.params,
        response: { 200: getMarketplaceProductInfo.response },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return productInfo(await lookUp(request.params.id, request.log));
    },
  );

  app.get(
    getMarketplaceProductSkus.path,
    {
      config,
      schema: {
        tags,
        params: getMarketplaceProductSkus.params,
        response: { 200: getMarketplaceProductSkus.response },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const product = await lookUp(request.params.id, request.log);
      return { variants: product.variants.map(fetchedVariant) };
    },
  );

  app.post(
    fetchMarketplaceImages.path,
    { config, schema: { tags, body: fetchMarketplaceImages.body, response: { 200: fetchMarketplaceImages.response } } },
    async (request) => {
      const id = extractMarketplaceId(request.body.aliExpressUrl);
      if (!id) throw invalid('aliExpressUrl', 'must be a marketplace product id or a product URL');
      return { images: productInfo(await lookUp(id, request.log)).imageUrls };
    },
  );

  app.post(
    uploadMarketplaceImage.path,
    { config, schema: { tags, body: uploadMarketplaceImage.body, response: { 201: uploadMarketplaceImage.response } } },
    async (request, reply) => {
      const { imageUrl, customName, position = 1 } = request.body;
      const productId = request.body.productId || null;
      const aliId = request.body.aliId || null;
      if (productId) {
        const [found] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
        if (!found) throw notFound(`Product not found: ${productId}`);
      }
      let bytes: Buffer;
      try {
        bytes = await marketplace.downloadImage(imageUrl);
      } catch (error) {
        if (!(error instanceof ImageDownloadError)) throw error;
        throw imageRefusal(error.reason, error.message);
      }
      let stored: Awaited<ReturnType<typeof storeProductImage>>;
      try {
        stored = await storeProductImage(storage, productImageKeyBase({ productId, aliId }, position), bytes);
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof ObjectStorageError) {
          request.log.error({ err: error }, 'image storage failed');
          throw new AppError(503, 'storage_unavailable', 'The image could not be stored: try again later');
        }
        // The bytes began like an image but are not one that decodes, or have too many pixels
        // (storeProductImage's ImageRejected carries which).
        request.log.warn({ err: error }, 'imported picture refused');
        const rejected = error as { name?: unknown; code?: unknown; message?: unknown };
        if (rejected.name === 'ImageRejected' && typeof rejected.code === 'string') {
          throw new AppError(422, rejected.code, String(rejected.message));
        }
        throw new AppError(422, 'not_an_image', 'The picture could not be read as a JPEG, PNG or WebP image');
      }
      const name = customName || pictureName(imageUrl);
      await db.insert(auditLog).values({
        actorUserId: request.user?.id ?? null,
        action: 'product_image.imported',
        entityType: 'product',
        entityId: productId,
        details: { source: imageUrl.slice(0, 500), url: stored.url, key: stored.key, aliId, name },
        ip: request.ip,
      });
      return reply.code(201).send({ url: stored.url, width: stored.width, height: stored.height, name });
    },
  );
};

/** A picture's name from its URL's file name, without extension ('image' when it has none). */
function pictureName(url: string): string {
  const file = URL.parse(url, 'https://relative.invalid')?.pathname.split('/').at(-1) ?? '';
  let decoded = file;
  try {
    decoded = decodeURIComponent(file);
  } catch {}
  const name = decoded
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 120);
  return name || 'image';
}

import { eq } from 'drizzle-orm';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { renameProductImage, uploadProductImage } from '#common/contracts/admin/product-images.ts';
import { MAX_IMAGE_BYTES, productMessages } from '#common/product-rules.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { AppError, handleError, invalid, notFound, sendError, unauthorized } from '#server/http/errors.ts';
import { SESSION_COOKIE } from '#server/http/session.ts';
import { products } from './catalog.tables.ts';
import {
  copyProductImage,
  ImageRejected,
  productImageKeyBase,
  productImageKeyOf,
  safeImageName,
  storeProductImage,
} from './product-images.ts';

type Actor = { userId: string; ip: string };

/**
 * The image manager's routes (back-office spec 2 and 5; permission uploadProducts), inside the
 * admin scope of app.ts: an upload (the file as the raw body, checked by its bytes, re-encoded and
 * stored as WebP renditions) and a rename (a copy under the new name). Neither changes a product,
 * so neither publishes a live event: the product's own save does. Both are audited.
 */
export const productImagesAdminRoutes: FastifyPluginAsyncZod<{ storage: ObjectStorage; db: Db }> = async (
  app,
  { storage, db },
) => {
  const tags = ['admin'];
  const config = { access: 'uploadProducts' as const };
  const actor = (request: { user: { id: string } | null; ip: string }): Actor => ({
    userId: request.user?.id ?? '',
    ip: request.ip,
  });
  const audit = (who: Actor, action: string, entityId: string | null, details: Record<string, unknown>) =>
    db.insert(auditLog).values({
      actorUserId: who.userId,
      action,
      entityType: 'product_image',
      entityId,
      details,
      ip: who.ip,
    });

  // The upload in a scope of its own: only its body is an image, read as bytes, up to 5 MB.
  await app.register(async (scope) => {
    const upload = scope.withTypeProvider<ZodTypeProvider>();
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser(
      [...uploadProductImage.contentTypes],
      { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES },
      (_request, body, done) => done(null, body),
    );
    // No session cookie at all: refused before 5 MB of body are read for nothing.
    upload.addHook('preParsing', async (request) => {
      if (!request.cookies[SESSION_COOKIE]) throw unauthorized();
    });
    upload.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return handleError(
          new AppError(415, 'unsupported_image_type', productMessages.imageType) as never,
          request,
          reply,
        );
      }
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(reply, 413, { error: productMessages.imageSize, code: 'image_too_large' });
      }
      return handleError(error, request, reply);
    });

    upload.post(
      uploadProductImage.path,
      {
        config,
        bodyLimit: MAX_IMAGE_BYTES,
        schema: { tags, querystring: uploadProductImage.query, response: { 201: uploadProductImage.response } },
      },
      async (request, reply) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new AppError(400, 'empty_body', 'The request has no image: send the file as the body');
        }
        const { productId = null, aliId = null, n } = request.query;
        // A saved product's folder only for a product that exists (drafts need none).
        if (productId) {
          const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
          if (!product) throw notFound(`Product not found: ${productId}`);
        }
        let stored: Awaited<ReturnType<typeof storeProductImage>>;
        try {
          stored = await storeProductImage(storage, productImageKeyBase({ productId, aliId }, n), body);
        } catch (error) {
          if (!(error instanceof ImageRejected)) throw error;
          const message = error.code === 'not_an_image' ? productMessages.imageType : error.message;
          throw new AppError(422, error.code, message);
        }
        await audit(actor(request), 'product_image.uploaded', productId, {
          key: stored.key,
          aliId,
          bytes: body.length,
          width: stored.width,
          height: stored.height,
        });
        return reply.code(201).send({ url: stored.url, width: stored.width, height: stored.height });
      },
    );
  });

  app.post(
    renameProductImage.path,
    { config, schema: { tags, body: renameProductImage.body, response: { 200: renameProductImage.response } } },
    async (request) => {
      const { url, name } = request.body;
      const safeName = safeImageName(name);
      if (!safeName) throw invalid('name', 'The image name is required');
      const key = productImageKeyOf(storage, url);
      if (!key) throw invalid('url', "Only this shop's product images can be renamed");
      const copied = await copyProductImage(storage, key, safeName);
      if (!copied) throw notFound('The image was not found');
      const productId = /^products\/([0-9a-f]{16})\//.exec(key)?.[1] ?? null;
      await audit(actor(request), 'product_image.renamed', productId, { from: key, to: copied.key });
      return { url: copied.url };
    },
  );
};

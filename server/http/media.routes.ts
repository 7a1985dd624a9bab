import type { FastifyPluginAsync } from 'fastify';
import { MEDIA_PREFIX, type ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import { sendError } from './errors.ts';

const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;
/** Stored keys are short (products/<slug>/<n>-<hash>.webp); longer names are not ours. */
const MAX_KEY_LENGTH = 255;

/** Serves stored files under /media/. Keys carry a content hash, so a key's bytes never change. */
export const mediaRoutes: FastifyPluginAsync<{ storage: ObjectStorage }> = async (app, { storage }) => {
  app.get(`${MEDIA_PREFIX}*`, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const valid = key.length <= MAX_KEY_LENGTH && SAFE_KEY.test(key) && !key.includes('..');
    const object = valid ? await storage.get(key) : null;
    if (!object) return sendError(reply, 404, { error: 'Not found', code: 'not_found' });
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-type', object.contentType)
      .header('x-content-type-options', 'nosniff')
      .send(object.body);
  });
};

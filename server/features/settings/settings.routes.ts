import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getPublicSettings } from '#common/contracts/settings.ts';
import type { SettingsService } from './settings.service.ts';

export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(
    getPublicSettings.path,
    { schema: { tags: ['settings'], response: { 200: getPublicSettings.response } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return getPublicSettings.response.parse(await settings.get());
    },
  );
};

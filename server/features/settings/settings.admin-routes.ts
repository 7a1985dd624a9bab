import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAdminSettings, saveAdminSettings } from '#common/contracts/admin/settings.ts';
import type { SettingsService } from './settings.service.ts';

/** The settings tab's routes (back office, owner only): inside the admin scope of app.ts. */
export const settingsAdminRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (app, { settings }) => {
  const tags = ['admin'];
  const owner = { config: { access: 'owner' as const } };
  // Secrets are masked in both answers; no cache may keep them anyway.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  app.get(
    getAdminSettings.path,
    { ...owner, schema: { tags, response: { 200: getAdminSettings.response } } },
    // Fresh from the database: another instance may have saved a moment ago.
    async () => settings.adminView(),
  );
  app.post(
    saveAdminSettings.path,
    { ...owner, schema: { tags, body: saveAdminSettings.body, response: { 200: saveAdminSettings.response } } },
    async (request) => settings.update(request.body, { userId: request.user?.id ?? '', ip: request.ip }),
  );
};

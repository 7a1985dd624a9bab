import { AdminSettings, SettingsChanges } from '../settings.ts';

/**
 * Spec 7: the settings tab (owner only) reads every setting, the secrets masked, and saves what
 * changed; the answer to a save is the settings as now stored, masked the same way.
 */
export const getAdminSettings = { method: 'GET', path: '/api/admin/settings', response: AdminSettings } as const;

export const saveAdminSettings = {
  method: 'POST',
  path: '/api/admin/settings',
  body: SettingsChanges,
  response: AdminSettings,
} as const;

import { SettingsChanges, SystemSettings } from '../settings.ts';

/** Spec 7: the settings tab (owner only) reads every setting and saves what changed. */
export const getAdminSettings = { method: 'GET', path: '/api/admin/settings', response: SystemSettings } as const;

export const saveAdminSettings = {
  method: 'POST',
  path: '/api/admin/settings',
  body: SettingsChanges,
  response: SystemSettings,
} as const;

import type { SessionUser } from '#common/contracts/accounts.ts';

const KEY = 'stillwater.user';

/** The signed-in user kept in this browser: shown at once, then confirmed or cleared by the server. */
export function readCachedUser(): SessionUser | null {
  if (typeof localStorage === 'undefined') return null;
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    return value && typeof value === 'object' && 'username' in value ? (value as SessionUser) : null;
  } catch {
    return null;
  }
}

export function cacheUser(user: SessionUser | null): void {
  if (typeof localStorage === 'undefined') return;
  if (user) localStorage.setItem(KEY, JSON.stringify(user));
  else localStorage.removeItem(KEY);
}

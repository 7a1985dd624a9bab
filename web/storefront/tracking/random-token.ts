/**
 * A random id of 22 URL-safe characters (128 bits): the analytics session and the ad events'
 * ids (spec 9: event ids are random strings). getRandomValues, unlike randomUUID, also works on
 * a page served over plain http.
 */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

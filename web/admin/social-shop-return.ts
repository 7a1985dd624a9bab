/**
 * On return from the social shop's authorisation (spec 2 and 8), the query parameters tiktok_success
 * and tiktok_error tell the result; the admin app shows it and removes them from the address.
 */
export const SOCIAL_SHOP_RETURN_PARAMS = ['tiktok_success', 'tiktok_error'] as const;

export function socialShopReturnMessage(params: URLSearchParams): { kind: 'success' | 'error'; text: string } | null {
  const error = params.get('tiktok_error');
  if (error !== null) {
    if (error === 'no_auth_code') return { kind: 'error', text: 'Authorization was cancelled or failed' };
    if (error === 'connection_failed') {
      return { kind: 'error', text: 'Failed to connect to TikTok Shop. Please try again.' };
    }
    // The code comes from the address bar: shown as text, cut short.
    return { kind: 'error', text: `TikTok Shop error: ${error.slice(0, 100)}` };
  }
  if (params.has('tiktok_success')) return { kind: 'success', text: 'TikTok Shop connected successfully' };
  return null;
}

import type { TestApp } from './test-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A browser-like client for API tests: it keeps cookies between requests and, like the
 * storefront, fetches a CSRF token before every state-changing request.
 */
export function testClient(
  app: TestApp,
  {
    remoteAddress = '127.0.0.1',
    headers: always = {},
  }: {
    remoteAddress?: string /** Sent with every request (a user agent, a GPC signal). */;
    headers?: Record<string, string>;
  } = {},
) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

  async function request(method: Method, url: string, payload?: unknown, options: { csrf?: boolean } = {}) {
    const headers: Record<string, string> = { ...always };
    if (method !== 'GET' && options.csrf !== false) {
      const token = await request('GET', '/api/auth/csrf-token');
      headers['x-csrf-token'] = token.json().token;
    }
    if (jar.size) headers.cookie = cookieHeader();
    const response = await app.inject({
      method,
      url,
      headers,
      remoteAddress,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() < Date.now())) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    return response;
  }

  return {
    get: (url: string) => request('GET', url),
    post: (url: string, payload?: unknown, options?: { csrf?: boolean }) => request('POST', url, payload, options),
    put: (url: string, payload?: unknown) => request('PUT', url, payload),
    patch: (url: string, payload?: unknown) => request('PATCH', url, payload),
    delete: (url: string) => request('DELETE', url),
    cookie: (name: string) => jar.get(name),
    setCookie: (name: string, value: string) => jar.set(name, value),
  };
}

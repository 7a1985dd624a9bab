import type { CsrfToken } from '#common/contracts/accounts.ts';
import { createApiClient, type Transport } from './api-client.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A fresh CSRF token before each state-changing call (spec section 7); without one the call goes anyway. */
async function fetchCsrfToken(): Promise<string | null> {
  try {
    const response = await fetch('/api/auth/csrf-token', { credentials: 'include', cache: 'no-store' });
    if (!response.ok) return null;
    const { token } = (await response.json()) as CsrfToken;
    return typeof token === 'string' ? token : null;
  } catch {
    return null;
  }
}

const fetchTransport: Transport = async ({ method, url, body, headers: extra }) => {
  const headers: Record<string, string> = { ...extra, accept: 'application/json' };
  if (UNSAFE.has(method)) {
    const token = await fetchCsrfToken();
    if (token) headers['x-csrf-token'] = token;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    credentials: 'include',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // Spec: a 401 on a secure request sends the browser to sign in, coming back here afterwards.
  if (response.status === 401 && response.headers.get('content-type')?.includes('json')) {
    const problem = (await response.clone().json()) as { code?: string };
    if (problem.code === 'unauthorized') {
      window.location.assign(
        `/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`,
      );
    }
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, statusText: response.statusText, body: parsed };
};

/** The API client of the browser. Browser code passes method and path with the endpoint as a type (see Target). */
export const api = createApiClient(fetchTransport);

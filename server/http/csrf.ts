import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '#common/constants.ts';
import { sendError } from './errors.ts';

/** The browser's CSRF secret; it also tells one anonymous browser from another (helpful votes). */
export const CSRF_COOKIE = 'sw_csrf';
/** Seconds a token stays valid; the storefront fetches a fresh one before each write anyway. */
export const CSRF_TOKEN_TTL = 2 * 60 * 60;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Verified tokens remembered at most; past this the memory starts again. */
const MAX_VERIFIED = 4096;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for inbound provider webhooks, which are verified by their signature instead. */
    csrf?: boolean;
  }
}

/**
 * Signed double-submit tokens (OWASP): a random secret in an httpOnly cookie, and a token
 * that is an HMAC of that secret with an expiry. Stateless, so any instance can check it.
 */
export function createCsrfProtection({ signingKey, secureCookies }: { signingKey: string; secureCookies: boolean }) {
  function sign(secret: string, expires: number): string {
    return createHmac('sha256', signingKey).update(`csrf.${secret}.${expires}`).digest('base64url');
  }

  function issueToken(request: FastifyRequest, reply: FastifyReply) {
    let secret = request.cookies[CSRF_COOKIE];
    if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) {
      secret = randomBytes(32).toString('base64url');
      reply.setCookie(CSRF_COOKIE, secret, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies });
    }
    const expires = Math.floor(Date.now() / 1000) + CSRF_TOKEN_TTL;
    return { token: `${expires}.${sign(secret, expires)}`, expiresIn: CSRF_TOKEN_TTL };
  }

  // Tokens already verified, each with the secret it was verified against: a browser sends the
  // same token with each write until it expires, and a lookup costs less than the HMAC (bounded;
  // a token's expiry is still checked on every request).
  let verified = new Map<string, string>();

  function isValid(request: FastifyRequest): boolean {
    const header = request.headers[CSRF_HEADER];
    const secret = request.cookies[CSRF_COOKIE];
    if (typeof header !== 'string' || !secret) return false;
    const [expiresText, signature] = header.split('.');
    const expires = Number(expiresText);
    if (!signature || !Number.isInteger(expires) || expires < Date.now() / 1000) return false;
    if (verified.get(header) === secret) return true;
    const expected = Buffer.from(sign(secret, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    if (verified.size >= MAX_VERIFIED) verified = new Map();
    verified.set(header, secret);
    return true;
  }

  /** Adds the check to every state-changing request of the given scope. */
  function protect(app: FastifyInstance) {
    // A callback hook, not an async one: it runs on every request and has nothing to wait for.
    app.addHook('onRequest', (request, reply, done) => {
      if (!UNSAFE_METHODS.has(request.method) || request.routeOptions.config.csrf === false || isValid(request)) {
        return done();
      }
      const message = request.headers[CSRF_HEADER]
        ? 'Invalid or expired CSRF token: fetch a new one from /api/auth/csrf-token'
        : 'Missing CSRF token: send the X-CSRF-Token header from /api/auth/csrf-token';
      sendError(reply, 403, { error: message, code: 'csrf_invalid' });
    });
  }

  return { issueToken, protect };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePassword,
  getCsrfToken,
  getMe,
  login,
  logout,
  register,
  requestPasswordReset,
  resetPassword,
  updateProfile,
  verifyEmail,
  verifyResetToken,
} from '#common/contracts/accounts.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import type { createCsrfProtection } from '#server/http/csrf.ts';
import { sendError } from '#server/http/errors.ts';
import { requireUser, SESSION_COOKIE } from '#server/http/session.ts';
import { type AccountsService, RESET_REQUESTED } from './accounts.service.ts';
import { SESSION_ABSOLUTE_MS, type SessionStore } from './sessions.ts';

type Deps = {
  csrf: ReturnType<typeof createCsrfProtection>;
  accounts: AccountsService;
  sessions: SessionStore;
  settings: SettingsService;
  secureCookies: boolean;
};

export const accountsRoutes: FastifyPluginAsyncZod<Deps> = async (
  app,
  { csrf, accounts, sessions, settings, secureCookies },
) => {
  const tags = ['auth'];
  // Sign-in, registration and reset requests share one strict per-client counter (settings'
  // strictRateLimit, per minute) in place of the general one.
  const strictLimit = app.rateLimit({
    max: () => settings.current()?.strictRateLimit ?? 10,
    timeWindow: '1 minute',
    keyGenerator: (request) => `auth:${request.ip}`,
  });
  const strict = { config: { rateLimit: false as const }, onRequest: strictLimit };

  /** A new session in a fresh cookie (a sign-in never reuses the session it came with). */
  async function startSession(request: FastifyRequest, reply: FastifyReply, user: { id: string; isAdmin: boolean }) {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await sessions.remove(previous);
    const token = await sessions.create(
      user.id,
      { ip: request.ip, userAgent: request.headers['user-agent'] },
      { adminSignIn: user.isAdmin },
    );
    setSessionCookie(reply, token);
  }

  function setSessionCookie(reply: FastifyReply, token: string) {
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies,
      maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
    });
  }

  app.get(getCsrfToken.path, { schema: { tags, response: { 200: getCsrfToken.response } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return csrf.issueToken(request, reply);
  });

  app.get(getMe.path, { schema: { tags, response: { 200: getMe.response } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return request.user ? { authenticated: true as const, user: request.user } : { authenticated: false as const };
  });

  app.post(
    register.path,
    { ...strict, schema: { tags, body: register.body, response: { 201: register.response } } },
    async (request, reply) => {
      // The session is stored with the account (one transaction), the browser's previous one ends.
      const { user, verificationRequired, sessionToken } = await accounts.register(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousSessionToken: request.cookies[SESSION_COOKIE],
      });
      reply.status(201);
      if (verificationRequired) {
        return {
          message: 'Account created: please confirm your email address with the link we sent you',
          verificationRequired,
        };
      }
      setSessionCookie(reply, sessionToken);
      return { message: 'Registration successful', user, verificationRequired };
    },
  );

  app.post(
    login.path,
    { ...strict, schema: { tags, body: login.body, response: { 200: login.response } } },
    async (request, reply) => {
      const user = await accounts.login(request.body, request.ip);
      await startSession(request, reply, user);
      return { message: 'Login successful', user };
    },
  );

  // The spec's storage sign-in (a Firebase custom token) has no place here: images go through the
  // shop's own storage adapter (disk or an S3-compatible bucket). A client that still asks is told so.
  app.post('/api/auth/firebase/custom-token', { config: { csrf: false }, schema: { tags } }, async (_request, reply) =>
    sendError(reply, 410, {
      error:
        'Firebase custom tokens are not issued: images are uploaded through the back office to the shop’s storage (disk or an S3-compatible bucket)',
      code: 'firebase_replaced',
    }),
  );

  app.post(logout.path, { schema: { tags, response: { 200: logout.response } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await sessions.remove(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true as const };
  });

  app.put(
    updateProfile.path,
    { schema: { tags, body: updateProfile.body, response: { 200: updateProfile.response } } },
    async (request) => {
      const { user, pendingEmail } = await accounts.updateProfile(
        requireUser(request.user).id,
        request.body,
        request.ip,
      );
      if (!pendingEmail) return { message: 'Profile updated', user };
      return {
        message: `Profile updated. We sent a confirmation link to ${pendingEmail}: your email changes when you open it.`,
        user,
        pendingEmail,
      };
    },
  );

  app.put(
    changePassword.path,
    { schema: { tags, body: changePassword.body, response: { 200: changePassword.response } } },
    async (request) => {
      const user = requireUser(request.user);
      await accounts.changePassword(user.id, request.cookies[SESSION_COOKIE] ?? '', request.body, request.ip);
      return { message: 'Password changed: your other sessions were signed out' };
    },
  );

  app.post(
    verifyEmail.path,
    { schema: { tags, body: verifyEmail.body, response: { 200: verifyEmail.response } } },
    async (request) => accounts.verifyEmailAddress(request.body.token),
  );

  app.post(
    requestPasswordReset.path,
    {
      ...strict,
      schema: { tags, body: requestPasswordReset.body, response: { 200: requestPasswordReset.response } },
    },
    async (request) => {
      await accounts.requestPasswordReset(request.body.email);
      return { message: RESET_REQUESTED };
    },
  );

  app.get(
    verifyResetToken.path,
    { schema: { tags, params: verifyResetToken.params, response: { 200: verifyResetToken.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return accounts.verifyResetToken(request.params.token);
    },
  );

  app.post(
    resetPassword.path,
    { schema: { tags, body: resetPassword.body, response: { 200: resetPassword.response } } },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.password);
      return { message: 'Your password has been reset: you can sign in with it now' };
    },
  );
};

import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { SocialShop as ShopAnswer } from '#common/contracts/admin/social-shop.ts';
import {
  type AuthorisedShop,
  type ShopAccess,
  type SocialShop,
  SocialShopError,
  type SocialShopTokens,
} from '#server/adapters/social-shop/social-shop.ts';
import type { Db } from '#server/db/client.ts';
import { newId } from '#server/db/ids.ts';
import type { SecretBox } from '#server/features/settings/secret-box.ts';
import { AppError, conflict, notFound } from '#server/http/errors.ts';
import { socialShopConnections, socialShopGrants, socialShopOauthStates } from './social-shop.tables.ts';

/** How long an authorisation may take, from Connect to the channel's redirect back. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** An access token is refreshed this long before it expires, so no call goes out with a dying one. */
export const REFRESH_BEFORE_MS = 10 * 60_000;

type Grant = typeof socialShopGrants.$inferSelect;
export type Connection = typeof socialShopConnections.$inferSelect;

/** Where the OAuth callback sends the browser back (spec 1: the tab reads tiktok_success / tiktok_error). */
export const returnUrl = (outcome: { success: true } | { error: string }) =>
  'success' in outcome
    ? '/admin?tab=tiktok-shop&tiktok_success=1'
    : `/admin?tab=tiktok-shop&tiktok_error=${encodeURIComponent(outcome.error)}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The channel's authorisations (issue 14): the OAuth state (bound to the admin's session, single
 * use, 10 minutes), the grants' tokens (sealed, refreshed before they expire, and when the
 * channel says one has), and the shops a grant covers (Resolve Shops: pending → ready).
 */
export function createGrants({
  db,
  socialShop,
  box,
  now = () => new Date(),
  log = () => {},
}: {
  db: Db;
  socialShop: SocialShop;
  box: SecretBox;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}) {
  const seal = (grantId: string, kind: 'access' | 'refresh', token: string) =>
    JSON.stringify(box.seal(`social-shop:${grantId}:${kind}`, token));

  function unseal(grantId: string, kind: 'access' | 'refresh', stored: string): string {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(stored);
    } catch {
      // Reported below as unreadable.
    }
    const token = box.open(`social-shop:${grantId}:${kind}`, parsed);
    if (token === null) {
      throw new AppError(
        409,
        'reconnect_required',
        'The TikTok Shop authorisation can no longer be read (the secret key changed): connect the shop again',
      );
    }
    return token;
  }

  function sealedTokens(grantId: string, tokens: SocialShopTokens) {
    return {
      accessTokenEncrypted: seal(grantId, 'access', tokens.accessToken),
      refreshTokenEncrypted: seal(grantId, 'refresh', tokens.refreshToken),
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    };
  }

  /** Connect: a state for the channel's authorise page, bound to this session. */
  async function authorizeUrl(userId: string, sessionToken: string): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    const at = now();
    // Old states of nobody's use go with each new one.
    await db.delete(socialShopOauthStates).where(lt(socialShopOauthStates.expiresAt, at));
    await db.insert(socialShopOauthStates).values({
      stateHash: sha256(state),
      userId,
      sessionHash: sha256(sessionToken),
      expiresAt: new Date(at.getTime() + OAUTH_STATE_TTL_MS),
    });
    return socialShop.authorizeUrl(state);
  }

  /**
   * The channel's redirect back: the state is taken (one delete: a replay, another session's
   * state or an expired one finds nothing), then the code traded for tokens, stored as a pending
   * grant. Answers where to send the browser.
   */
  async function completeAuthorisation(input: {
    state: string | undefined;
    code: string | undefined;
    sessionToken: string | undefined;
  }): Promise<string> {
    if (!input.state || !input.sessionToken) return returnUrl({ error: 'invalid_state' });
    const [taken] = await db
      .delete(socialShopOauthStates)
      .where(
        and(
          eq(socialShopOauthStates.stateHash, sha256(input.state)),
          eq(socialShopOauthStates.sessionHash, sha256(input.sessionToken)),
          gt(socialShopOauthStates.expiresAt, now()),
        ),
      )
      .returning({ userId: socialShopOauthStates.userId });
    if (!taken) return returnUrl({ error: 'invalid_state' });
    // The seller cancelled (or the channel sent no code): the state is used up all the same.
    if (!input.code) return returnUrl({ error: 'no_auth_code' });
    let tokens: SocialShopTokens;
    try {
      tokens = await socialShop.exchangeCode(input.code);
    } catch (error) {
      log('TikTok Shop refused the authorisation code', loggable(error));
      return returnUrl({ error: 'connection_failed' });
    }
    const id = newId();
    await db.insert(socialShopGrants).values({
      id,
      sellerName: tokens.sellerName,
      region: tokens.region,
      ...sealedTokens(id, tokens),
    });
    return returnUrl({ success: true });
  }

  /**
   * A grant's access token, refreshed first when it expires within REFRESH_BEFORE_MS (or when
   * `force`: the channel said it had expired). Two refreshes at once: the one whose write lands
   * second finds the token changed and uses the stored one.
   */
  async function accessToken(grantId: string, { force = false } = {}): Promise<string> {
    const [grant] = await db.select().from(socialShopGrants).where(eq(socialShopGrants.id, grantId));
    if (!grant) throw notFound('Shop not found');
    const fresh = grant.accessTokenExpiresAt.getTime() - now().getTime() > REFRESH_BEFORE_MS;
    if (fresh && !force) return unseal(grant.id, 'access', grant.accessTokenEncrypted);
    return refresh(grant);
  }

  async function refresh(grant: Grant): Promise<string> {
    if (grant.refreshTokenExpiresAt.getTime() <= now().getTime()) throw reconnectRequired();
    let tokens: SocialShopTokens;
    try {
      tokens = await socialShop.refreshTokens(unseal(grant.id, 'refresh', grant.refreshTokenEncrypted));
    } catch (error) {
      // Another instance may have refreshed (and so spent this refresh token) just now.
      const [current] = await db.select().from(socialShopGrants).where(eq(socialShopGrants.id, grant.id));
      if (current && current.refreshTokenEncrypted !== grant.refreshTokenEncrypted) {
        return unseal(current.id, 'access', current.accessTokenEncrypted);
      }
      // Refused, or expired by the channel's clock (105002 on the refresh route): only a new grant helps.
      if (error instanceof SocialShopError && (error.kind === 'credentials' || error.kind === 'token_expired')) {
        throw reconnectRequired();
      }
      throw error;
    }
    const [written] = await db
      .update(socialShopGrants)
      .set(sealedTokens(grant.id, tokens))
      .where(
        and(eq(socialShopGrants.id, grant.id), eq(socialShopGrants.refreshTokenEncrypted, grant.refreshTokenEncrypted)),
      )
      .returning({ id: socialShopGrants.id });
    if (written) return tokens.accessToken;
    const [current] = await db.select().from(socialShopGrants).where(eq(socialShopGrants.id, grant.id));
    if (!current) throw notFound('Shop not found');
    return unseal(current.id, 'access', current.accessTokenEncrypted);
  }

  /**
   * Runs a call with a grant's token; when the channel answers that the token has expired
   * (its clock and ours may differ), refreshes it once and calls again.
   */
  async function withToken<T>(grantId: string, call: (accessToken: string) => Promise<T>): Promise<T> {
    try {
      return await call(await accessToken(grantId));
    } catch (error) {
      if (!(error instanceof SocialShopError && error.kind === 'token_expired')) throw error;
      return call(await accessToken(grantId, { force: true }));
    }
  }

  /** A shop-scoped call for a ready shop. */
  function withShop<T>(connection: Connection, call: (access: ShopAccess) => Promise<T>): Promise<T> {
    return withToken(connection.grantId, (token) => call({ accessToken: token, shopCipher: connection.shopCipher }));
  }

  /** The connected shops, newest first: ready ones and the grants still pending. */
  async function shops(): Promise<ShopAnswer[]> {
    const [ready, pending] = await Promise.all([
      db
        .select({ connection: socialShopConnections, shopsDiscovered: socialShopGrants.shopsDiscovered })
        .from(socialShopConnections)
        .innerJoin(socialShopGrants, eq(socialShopGrants.id, socialShopConnections.grantId))
        .orderBy(asc(socialShopConnections.createdAt), asc(socialShopConnections.id)),
      db
        .select()
        .from(socialShopGrants)
        .where(isNull(socialShopGrants.resolvedAt))
        .orderBy(asc(socialShopGrants.createdAt), asc(socialShopGrants.id)),
    ]);
    return [
      ...ready.map(({ connection, shopsDiscovered }) => ({
        shopId: connection.shopId,
        shopName: connection.shopName,
        status: 'ready' as const,
        region: connection.region,
        shopsDiscovered,
        createdAt: connection.createdAt.toISOString(),
      })),
      ...pending.map((grant) => ({
        shopId: grant.id,
        shopName: grant.sellerName ?? 'TikTok Shop seller',
        status: 'pending' as const,
        region: grant.region ?? '',
        shopsDiscovered: 0,
        createdAt: grant.createdAt.toISOString(),
      })),
    ];
  }

  /**
   * Resolve Shops: each pending grant's shops are read with their ciphers and stored ready; a
   * shop authorised again moves to the newer grant (its listings and syncs stay with it). A pending
   * grant that can no longer be used is removed (409 reconnect_required when no other resolved).
   * Answers how many shops were resolved.
   */
  async function resolveShops(): Promise<number> {
    const pending = await db.select().from(socialShopGrants).where(isNull(socialShopGrants.resolvedAt));
    let resolved = 0;
    let unusable: AppError | null = null;
    for (const grant of pending) {
      let found: AuthorisedShop[];
      try {
        found = await withToken(grant.id, (token) => socialShop.authorisedShops(token));
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'reconnect_required')) throw error;
        // Its tokens are unreadable or expired: kept, it would fail every Resolve Shops, even after a new Connect.
        log(`a pending TikTok Shop grant could no longer be used and was removed: ${error.message}`);
        await db
          .delete(socialShopGrants)
          .where(and(eq(socialShopGrants.id, grant.id), isNull(socialShopGrants.resolvedAt)));
        unusable ??= error;
        continue;
      }
      await db.transaction(async (tx) => {
        for (const shop of found) {
          await tx
            .insert(socialShopConnections)
            .values({
              grantId: grant.id,
              shopId: shop.id,
              shopName: shop.name,
              shopCipher: shop.cipher,
              region: shop.region,
            })
            .onConflictDoUpdate({
              target: [socialShopConnections.channel, socialShopConnections.shopId],
              set: {
                grantId: grant.id,
                shopName: shop.name,
                shopCipher: shop.cipher,
                region: shop.region,
                updatedAt: now(),
              },
            });
        }
        await tx
          .update(socialShopGrants)
          .set({ resolvedAt: now(), shopsDiscovered: found.length })
          .where(eq(socialShopGrants.id, grant.id));
        // Grants left without a shop (replaced by this one) are of no more use.
        await tx.execute(sql`
          DELETE FROM ${socialShopGrants} g
          WHERE g.resolved_at IS NOT NULL AND g.id <> ${grant.id}
            AND NOT EXISTS (SELECT 1 FROM ${socialShopConnections} c WHERE c.grant_id = g.id)`);
      });
      resolved += found.length;
    }
    // Nothing else to resolve: the owner is told to connect again.
    if (unusable && resolved === 0) throw unusable;
    return resolved;
  }

  /** A ready shop by the channel's shop id; a pending one is refused with what to do. */
  async function readyShop(shopId: string): Promise<Connection> {
    const [connection] = await db
      .select()
      .from(socialShopConnections)
      .where(and(eq(socialShopConnections.channel, 'tiktok-shop'), eq(socialShopConnections.shopId, shopId)));
    if (connection) return connection;
    const [grant] = await db
      .select({ id: socialShopGrants.id })
      .from(socialShopGrants)
      .where(and(eq(socialShopGrants.id, shopId), isNull(socialShopGrants.resolvedAt)));
    if (grant) throw conflict('shop_pending', 'This shop is still pending: run Resolve Shops first');
    throw notFound('Shop not found');
  }

  async function connectionByShopId(shopId: string): Promise<Connection | null> {
    const [connection] = await db
      .select()
      .from(socialShopConnections)
      .where(and(eq(socialShopConnections.channel, 'tiktok-shop'), eq(socialShopConnections.shopId, shopId)));
    return connection ?? null;
  }

  async function readyShops(): Promise<Connection[]> {
    return db.select().from(socialShopConnections).orderBy(asc(socialShopConnections.createdAt));
  }

  return {
    authorizeUrl,
    completeAuthorisation,
    accessToken,
    withToken,
    withShop,
    shops,
    resolveShops,
    readyShop,
    readyShops,
    connectionByShopId,
  };
}

export type Grants = ReturnType<typeof createGrants>;

const reconnectRequired = () =>
  new AppError(409, 'reconnect_required', 'The TikTok Shop authorisation has expired: connect the shop again');

/** What a log line may say of a failed call: its kind and code, never a token. */
export function loggable(error: unknown) {
  return error instanceof SocialShopError
    ? { kind: error.kind, code: error.code, message: error.message, requestId: error.requestId }
    : error;
}

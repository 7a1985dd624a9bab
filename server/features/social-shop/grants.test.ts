import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { SocialShopError } from '#server/adapters/social-shop/social-shop.ts';
import { SANDBOX_SELLER } from '#server/adapters/social-shop/tiktok-shop-stand-in.ts';
import { createSecretBox, type SecretBox } from '#server/features/settings/secret-box.ts';
import { AppError } from '#server/http/errors.ts';
import { standInOverHttp } from '#server/testing/social-shop-stand-in.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { createGrants, REFRESH_BEFORE_MS } from './grants.ts';
import { socialShopConnections, socialShopGrants } from './social-shop.tables.ts';

const appKey = 'sbxgrantsappkey1';
const appSecret = 'grants-test-secret-0123456789abcdef';
const serviceId = '7300000000000000002';
const DAY_MS = 24 * 60 * 60_000;
const ACCESS_LIFETIME_MS = 7 * DAY_MS;
const REFRESH_LIFETIME_MS = 30 * DAY_MS;

// One clock for the channel, the client and the grants, moved by the tests.
let clock = Date.now();
const now = () => new Date(clock);

const { standIn, client } = await standInOverHttp({
  appKey,
  appSecret,
  serviceId,
  accessTokenLifetimeSeconds: ACCESS_LIFETIME_MS / 1000,
  refreshTokenLifetimeSeconds: REFRESH_LIFETIME_MS / 1000,
  now,
});
const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

const box = createSecretBox('grants-test-key-material-0123456789abcdef');
const grants = createGrants({ db, socialShop: client, box, now });

beforeEach(() => {
  clock = Date.now();
});

/** The seller authorises on the channel's page and the callback completes: answers the new grant's id. */
async function newGrant(): Promise<string> {
  const sessionToken = `session-${Math.random()}`;
  const authUrl = new URL(await grants.authorizeUrl('user-1', sessionToken));
  const decision = new URL('authorize/grant', authUrl);
  decision.search = authUrl.search;
  const redirect = await fetch(decision, { redirect: 'manual' });
  const back = new URL(redirect.headers.get('location') ?? '');
  const before = new Set((await db.select({ id: socialShopGrants.id }).from(socialShopGrants)).map((g) => g.id));
  const outcome = await grants.completeAuthorisation({
    state: back.searchParams.get('state') ?? undefined,
    code: back.searchParams.get('code') ?? undefined,
    sessionToken,
  });
  expect(outcome).toBe('/admin?tab=tiktok-shop&tiktok_success=1');
  const [created] = (await db.select({ id: socialShopGrants.id }).from(socialShopGrants)).filter(
    (g) => !before.has(g.id),
  );
  if (!created) throw new Error('no grant was stored');
  return created.id;
}

async function storedGrant(id: string) {
  const [grant] = await db.select().from(socialShopGrants).where(eq(socialShopGrants.id, id));
  if (!grant) throw new Error(`no grant ${id}`);
  return grant;
}

/** The grant's row as the database holds it, every column as text. */
async function rowText(id: string): Promise<string> {
  const rows = await db
    .select({ row: sql<string>`${socialShopGrants}::text` })
    .from(socialShopGrants)
    .where(eq(socialShopGrants.id, id));
  expect(rows).toHaveLength(1);
  return rows.map((r) => r.row).join('');
}

const openToken = (grantId: string, kind: 'access' | 'refresh', stored: string) =>
  box.open(`social-shop:${grantId}:${kind}`, JSON.parse(stored));

const countCalls = (path: string) => standIn.calls.filter((call) => call.path === path).length;
const REFRESH_PATH = '/auth/api/v2/token/refresh';
const SHOPS_PATH = '/authorization/202309/shops';

/** Whether the channel takes the token (it answers the shops for it). */
async function works(token: string) {
  const shops = await client.authorisedShops(token);
  return shops.length === SANDBOX_SELLER.shops.length;
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { status: error.statusCode, code: error.code, message: error.message };
}

describe('access tokens', () => {
  test('a token expiring within 10 minutes is refreshed before the call, and stored sealed', async () => {
    const id = await newGrant();
    const first = await storedGrant(id);
    const oldToken = openToken(id, 'access', first.accessTokenEncrypted);
    expect(oldToken).toMatch(/^TTP_/);
    expect(await rowText(id)).not.toContain(oldToken);

    // Still fresh: used as stored.
    clock += ACCESS_LIFETIME_MS - REFRESH_BEFORE_MS - 60_000;
    const refreshes = countCalls(REFRESH_PATH);
    expect(await grants.accessToken(id)).toBe(oldToken);
    expect(countCalls(REFRESH_PATH)).toBe(refreshes);

    // Five minutes before it expires: refreshed first, then the call goes with the new one.
    clock += 6 * 60_000;
    const used: string[] = [];
    const answer = await grants.withToken(id, async (token) => {
      used.push(token);
      return client.authorisedShops(token);
    });
    expect(answer.map((s) => s.id)).toEqual(SANDBOX_SELLER.shops.map((s) => s.id));
    expect(countCalls(REFRESH_PATH)).toBe(refreshes + 1);
    expect(used).toHaveLength(1);
    expect(used[0]).not.toBe(oldToken);

    const refreshed = await storedGrant(id);
    expect(openToken(id, 'access', refreshed.accessTokenEncrypted)).toBe(used[0]);
    expect(refreshed.accessTokenExpiresAt.getTime()).toBeGreaterThan(clock + ACCESS_LIFETIME_MS - 60_000);
    const newRefresh = openToken(id, 'refresh', refreshed.refreshTokenEncrypted);
    expect(newRefresh).toMatch(/^TTP_/);
    const text = await rowText(id);
    for (const token of [used[0] ?? '', newRefresh ?? '']) expect(text).not.toContain(token);
    expect(text).not.toContain('TTP_');
  });

  test('a token the channel says has expired is refreshed once and the call made again', async () => {
    const id = await newGrant();
    const refreshes = countCalls(REFRESH_PATH);
    const calls = countCalls(SHOPS_PATH);
    standIn.failNext(SHOPS_PATH, { status: 401, code: 105002, times: 1 });
    const used: string[] = [];
    const shops = await grants.withToken(id, async (token) => {
      used.push(token);
      return client.authorisedShops(token);
    });
    expect(shops).toHaveLength(SANDBOX_SELLER.shops.length);
    expect(countCalls(REFRESH_PATH)).toBe(refreshes + 1);
    expect(countCalls(SHOPS_PATH)).toBe(calls + 2);
    expect(used).toHaveLength(2);
    expect(used[1]).not.toBe(used[0]);
    expect(openToken(id, 'access', (await storedGrant(id)).accessTokenEncrypted)).toBe(used[1]);
  });

  test('a channel that still says expired after the refresh gets no second refresh', async () => {
    const id = await newGrant();
    const refreshes = countCalls(REFRESH_PATH);
    standIn.failNext(SHOPS_PATH, { status: 401, code: 105002, times: 2 });
    const error = await grants.withToken(id, (token) => client.authorisedShops(token)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SocialShopError);
    expect((error as SocialShopError).kind).toBe('token_expired');
    expect(countCalls(REFRESH_PATH)).toBe(refreshes + 1);
  });

  test('two calls at once on an expiring grant both get a working token, and the grant stays whole', async () => {
    const id = await newGrant();
    clock += ACCESS_LIFETIME_MS - 5 * 60_000;
    const tokens = await Promise.all([grants.accessToken(id), grants.accessToken(id), grants.accessToken(id)]);
    const stored = await storedGrant(id);
    const storedAccess = openToken(id, 'access', stored.accessTokenEncrypted);
    // The refresh written first wins; the others use what it stored.
    expect(new Set(tokens)).toEqual(new Set([storedAccess]));
    for (const token of tokens) expect(await works(token)).toBe(true);
    expect(stored.accessTokenExpiresAt.getTime() - clock).toBeGreaterThan(REFRESH_BEFORE_MS);
    const storedRefresh = openToken(id, 'refresh', stored.refreshTokenEncrypted);
    expect(storedRefresh).toMatch(/^TTP_/);
    // The stored refresh token still works for the next refresh.
    clock += ACCESS_LIFETIME_MS - 5 * 60_000;
    const next = await grants.accessToken(id);
    expect(next).not.toBe(storedAccess);
    expect(await works(next)).toBe(true);
  });
});

describe('a grant that cannot be used', () => {
  test('an expired refresh token asks for the shop to be connected again (409), without calling the channel', async () => {
    const id = await newGrant();
    clock += REFRESH_LIFETIME_MS + 60_000;
    const refreshes = countCalls(REFRESH_PATH);
    expect(await refusal(grants.accessToken(id))).toEqual({
      status: 409,
      code: 'reconnect_required',
      message: 'The TikTok Shop authorisation has expired: connect the shop again',
    });
    expect(await refusal(grants.withToken(id, (token) => client.authorisedShops(token)))).toMatchObject({
      status: 409,
      code: 'reconnect_required',
    });
    expect(countCalls(REFRESH_PATH)).toBe(refreshes);
  });

  test('a refresh token the channel says has expired asks for a reconnect too, after one try', async () => {
    const id = await newGrant();
    clock += ACCESS_LIFETIME_MS;
    const refreshes = countCalls(REFRESH_PATH);
    // The channel's clock is ahead of ours: it finds the refresh token expired.
    standIn.failNext(REFRESH_PATH, { status: 401, code: 105002, times: 1 });
    expect(await refusal(grants.withToken(id, (token) => client.authorisedShops(token)))).toMatchObject({
      status: 409,
      code: 'reconnect_required',
    });
    expect(countCalls(REFRESH_PATH)).toBe(refreshes + 1);
  });

  test('tokens sealed with another key ask for a reconnect (409), not a 500', async () => {
    const id = await newGrant();
    const otherBox: SecretBox = createSecretBox('another-instance-key-material-0123456789');
    const elsewhere = createGrants({ db, socialShop: client, box: otherBox, now });
    const reconnect = { status: 409, code: 'reconnect_required' };
    // A fresh token (unsealed at once) and an expiring one (its refresh token unsealed).
    expect(await refusal(elsewhere.accessToken(id))).toMatchObject(reconnect);
    expect(await refusal(elsewhere.withToken(id, (token) => client.authorisedShops(token)))).toMatchObject(reconnect);
    clock += ACCESS_LIFETIME_MS - 60_000;
    const refreshes = countCalls(REFRESH_PATH);
    expect(await refusal(elsewhere.accessToken(id))).toMatchObject(reconnect);
    expect(countCalls(REFRESH_PATH)).toBe(refreshes);
    // A stored value that is not a sealed one at all is the same.
    await db.update(socialShopGrants).set({ accessTokenEncrypted: 'not json' }).where(eq(socialShopGrants.id, id));
    clock = Date.now();
    expect(await refusal(grants.accessToken(id))).toMatchObject(reconnect);
  });
});

describe('shops', () => {
  test('a pending grant is refused with what to do; an unknown shop is not found', async () => {
    const id = await newGrant();
    expect(await refusal(grants.readyShop(id))).toEqual({
      status: 409,
      code: 'shop_pending',
      message: 'This shop is still pending: run Resolve Shops first',
    });
    expect(await refusal(grants.readyShop('7495000000000000000'))).toMatchObject({ status: 404 });
    const shops = await grants.shops();
    expect(shops).toContainEqual(expect.objectContaining({ shopId: id, status: 'pending', shopsDiscovered: 0 }));
  });

  test('Resolve Shops moves a shop authorised again to the newer grant and deletes the old grant', async () => {
    const older = await newGrant();
    await grants.resolveShops();
    const [usShop, gbShop] = SANDBOX_SELLER.shops;
    const before = await grants.readyShop(usShop.id);
    expect(before.grantId).toBe(older);
    expect(before.shopCipher).toBe(usShop.cipher);

    const newer = await newGrant();
    expect(await grants.resolveShops()).toBe(SANDBOX_SELLER.shops.length);
    const after = await grants.readyShop(usShop.id);
    // The same connection (its listings and syncs stay), now on the newer grant.
    expect(after).toMatchObject({ id: before.id, grantId: newer, shopName: usShop.name, region: usShop.region });
    expect((await grants.readyShop(gbShop.id)).grantId).toBe(newer);
    expect(await db.select().from(socialShopGrants).where(eq(socialShopGrants.id, older))).toEqual([]);
    expect(await storedGrant(newer)).toMatchObject({ shopsDiscovered: 2 });
    expect(
      (await db.select().from(socialShopConnections)).filter((c) => c.shopId === usShop.id).map((c) => c.grantId),
    ).toEqual([newer]);
    const shops = await grants.shops();
    expect(shops.filter((s) => s.status === 'pending')).toEqual([]);
    expect(shops.filter((s) => s.shopId === usShop.id)).toEqual([
      expect.objectContaining({ status: 'ready', shopsDiscovered: 2, region: 'US' }),
    ]);
  });

  test('a pending grant that can no longer be used is removed instead of blocking Resolve Shops', async () => {
    const broken = await newGrant();
    const good = await newGrant();
    // The first was sealed before the secret key changed: this instance cannot read it.
    const otherBox = createSecretBox('another-instance-key-material-0123456789');
    const token = openToken(broken, 'access', (await storedGrant(broken)).accessTokenEncrypted) ?? '';
    await db
      .update(socialShopGrants)
      .set({ accessTokenEncrypted: JSON.stringify(otherBox.seal(`social-shop:${broken}:access`, token)) })
      .where(eq(socialShopGrants.id, broken));
    expect(await grants.resolveShops()).toBe(SANDBOX_SELLER.shops.length);
    expect(await db.select().from(socialShopGrants).where(eq(socialShopGrants.id, broken))).toEqual([]);
    expect((await grants.readyShop(SANDBOX_SELLER.shops[0].id)).grantId).toBe(good);

    // Alone, it is removed and the owner told to connect again; the next Resolve Shops is clean.
    const alone = await newGrant();
    await db.update(socialShopGrants).set({ accessTokenEncrypted: '{}' }).where(eq(socialShopGrants.id, alone));
    expect(await refusal(grants.resolveShops())).toMatchObject({ status: 409, code: 'reconnect_required' });
    expect(await db.select().from(socialShopGrants).where(eq(socialShopGrants.id, alone))).toEqual([]);
    expect(await grants.resolveShops()).toBe(0);
  });
});

import { describe, expect, test } from 'vitest';
import { configProblem as problem } from '#server/testing/config-problem.ts';
import { loadConfig } from './config.ts';

const app = {
  TIKTOK_SHOP_APP_KEY: '6abc12def34gh',
  TIKTOK_SHOP_APP_SECRET: '0123456789abcdef0123456789abcdef',
  TIKTOK_SHOP_SERVICE_ID: '7300000000000000001',
};

describe('the social shop configuration', () => {
  test('nothing set: the sandbox shop', () => {
    expect(loadConfig({}).tiktokShop).toBeNull();
  });

  test("the app's three values give TikTok Shop on its production hosts", () => {
    expect(loadConfig(app).tiktokShop).toEqual({
      appKey: app.TIKTOK_SHOP_APP_KEY,
      appSecret: app.TIKTOK_SHOP_APP_SECRET,
      serviceId: app.TIKTOK_SHOP_SERVICE_ID,
      apiBase: 'https://open-api.tiktokglobalshop.com',
      authBase: 'https://auth.tiktok-shops.com/api/v2',
      authorizeUrl: 'https://services.tiktokshop.com/open/authorize',
    });
  });

  test('the hosts can be changed (TikTok sandbox hosts, a stand-in)', () => {
    const config = loadConfig({
      ...app,
      TIKTOK_SHOP_API_BASE_URL: 'https://open-api-sandbox.tiktokglobalshop.com/',
      TIKTOK_SHOP_AUTH_BASE_URL: 'https://auth-sandbox.tiktok-shops.com/api/v2/',
      TIKTOK_SHOP_AUTHORIZE_URL: 'https://services.us.tiktokshop.com/open/authorize',
    });
    expect(config.tiktokShop).toMatchObject({
      apiBase: 'https://open-api-sandbox.tiktokglobalshop.com',
      authBase: 'https://auth-sandbox.tiktok-shops.com/api/v2',
      authorizeUrl: 'https://services.us.tiktokshop.com/open/authorize',
    });
  });

  test('all three or none, naming what is missing', () => {
    expect(problem({ TIKTOK_SHOP_APP_KEY: app.TIKTOK_SHOP_APP_KEY })).toContain(
      'set TIKTOK_SHOP_APP_KEY, TIKTOK_SHOP_APP_SECRET and TIKTOK_SHOP_SERVICE_ID together (missing TIKTOK_SHOP_APP_SECRET, TIKTOK_SHOP_SERVICE_ID)',
    );
  });

  test('malformed values are refused by name', () => {
    expect(problem({ ...app, TIKTOK_SHOP_APP_SECRET: 'short' })).toContain('TIKTOK_SHOP_APP_SECRET');
    expect(problem({ ...app, TIKTOK_SHOP_APP_KEY: 'has space' })).toContain('TIKTOK_SHOP_APP_KEY');
    expect(problem({ ...app, TIKTOK_SHOP_API_BASE_URL: 'ftp://example.com' })).toContain('TIKTOK_SHOP_API_BASE_URL');
  });
});

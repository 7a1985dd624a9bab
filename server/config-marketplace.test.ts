import { describe, expect, test } from 'vitest';
import { configProblem as problem } from '#server/testing/config-problem.ts';
import { loadConfig } from './config.ts';

const credentials = {
  ALIEXPRESS_APP_KEY: '503123',
  ALIEXPRESS_APP_SECRET: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
  ALIEXPRESS_ACCESS_TOKEN: '50000800a12bcDEfgh1234567890',
};

describe('the marketplace configuration', () => {
  test('nothing set: the demo marketplace (no AliExpress settings)', () => {
    expect(loadConfig({}).aliexpress).toBeNull();
  });

  test('the three credentials give AliExpress with its defaults', () => {
    expect(loadConfig(credentials).aliexpress).toEqual({
      appKey: '503123',
      appSecret: credentials.ALIEXPRESS_APP_SECRET,
      accessToken: credentials.ALIEXPRESS_ACCESS_TOKEN,
      apiBase: 'https://api-sg.aliexpress.com',
      shipToCountry: 'US',
      logisticsServiceName: null,
      payAutomatically: false,
    });
  });

  test('the optional settings are read', () => {
    const config = loadConfig({
      ...credentials,
      ALIEXPRESS_API_BASE_URL: 'http://127.0.0.1:9911/',
      ALIEXPRESS_SHIP_TO_COUNTRY: 'gb',
      ALIEXPRESS_LOGISTICS_SERVICE: 'CAINIAO_STANDARD',
      ALIEXPRESS_AUTO_PAY: 'true',
    });
    expect(config.aliexpress).toMatchObject({
      apiBase: 'http://127.0.0.1:9911',
      shipToCountry: 'GB',
      logisticsServiceName: 'CAINIAO_STANDARD',
      payAutomatically: true,
    });
  });

  test.each([
    [{ ALIEXPRESS_APP_KEY: '503123' }, 'ALIEXPRESS_APP_SECRET'],
    [
      { ALIEXPRESS_APP_KEY: '503123', ALIEXPRESS_APP_SECRET: credentials.ALIEXPRESS_APP_SECRET },
      'ALIEXPRESS_ACCESS_TOKEN',
    ],
    [{ ALIEXPRESS_ACCESS_TOKEN: credentials.ALIEXPRESS_ACCESS_TOKEN }, 'ALIEXPRESS_APP_KEY'],
  ])('a partial set of credentials is a startup error naming what is missing (%o)', (env, missing) => {
    const message = problem(env);
    expect(message).toContain(missing);
    expect(message).toContain('together');
  });

  test.each([
    [{ ...credentials, ALIEXPRESS_APP_KEY: 'abc123' }, 'ALIEXPRESS_APP_KEY'],
    [{ ...credentials, ALIEXPRESS_APP_KEY: '123' }, 'ALIEXPRESS_APP_KEY'],
    [{ ...credentials, ALIEXPRESS_APP_SECRET: 'short' }, 'ALIEXPRESS_APP_SECRET'],
    [{ ...credentials, ALIEXPRESS_APP_SECRET: 'has a space in the middle!!' }, 'ALIEXPRESS_APP_SECRET'],
    [{ ...credentials, ALIEXPRESS_ACCESS_TOKEN: 'tiny' }, 'ALIEXPRESS_ACCESS_TOKEN'],
    [{ ...credentials, ALIEXPRESS_ACCESS_TOKEN: 'x'.repeat(513) }, 'ALIEXPRESS_ACCESS_TOKEN'],
    [{ ...credentials, ALIEXPRESS_API_BASE_URL: 'ftp://api.example' }, 'ALIEXPRESS_API_BASE_URL'],
    [{ ...credentials, ALIEXPRESS_SHIP_TO_COUNTRY: 'USA' }, 'ALIEXPRESS_SHIP_TO_COUNTRY'],
    [{ ...credentials, ALIEXPRESS_LOGISTICS_SERVICE: 'EPAM; DROP' }, 'ALIEXPRESS_LOGISTICS_SERVICE'],
    [{ ...credentials, ALIEXPRESS_AUTO_PAY: 'yes' }, 'ALIEXPRESS_AUTO_PAY'],
  ])('a malformed value is refused, naming the variable and never its value (%#)', (env, variable) => {
    const message = problem(env);
    expect(message).toContain(variable);
    for (const value of Object.values(credentials)) expect(message).not.toContain(value);
  });

  test('in production the API base must be https', () => {
    expect(
      problem({ NODE_ENV: 'production', ...credentials, ALIEXPRESS_API_BASE_URL: 'http://api-sg.aliexpress.com' }),
    ).toContain('ALIEXPRESS_API_BASE_URL: must be an https:// URL in production');
    expect(loadConfig({ NODE_ENV: 'production', ...credentials }).aliexpress?.apiBase).toBe(
      'https://api-sg.aliexpress.com',
    );
  });
});

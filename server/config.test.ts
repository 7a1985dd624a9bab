import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { configProblem } from './testing/config-problem.ts';

describe('configuration', () => {
  test('nothing set gives the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      database: { kind: 'pglite', dir: path.resolve('data/db') },
      uploadsDir: path.resolve('data/uploads'),
      redisUrl: null,
      sessionSecret: null,
      trustProxy: false,
      seedDemoData: true,
      owner: { email: null, password: null },
    });
  });

  test('a PostgreSQL URL switches the database; production on it starts without demo content', () => {
    const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db:5432/shop' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/shop' });
    expect(config.seedDemoData).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemoData).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', SEED_DEMO_DATA: 'true' }).seedDemoData,
    ).toBe(true);
  });

  test.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://db/shop' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL'],
    [{ PUBLIC_URL: 'shop.example.com' }, 'PUBLIC_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ OWNER_EMAIL: 'not-an-email' }, 'OWNER_EMAIL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '127.0.0.1,proxy.local' }, 'TRUST_PROXY'],
    [{ RATE_LIMIT_ALLOW_LIST: 'localhost' }, 'RATE_LIMIT_ALLOW_LIST'],
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ AI_BASE_URL: 'localhost:11434/v1', AI_MODEL: 'llama3.1' }, 'AI_BASE_URL'],
    [{ AI_BASE_URL: 'ftp://models.example.com', AI_MODEL: 'llama3.1' }, 'AI_BASE_URL'],
    [{ AI_BASE_URL: 'http://localhost:11434/v1' }, 'AI_MODEL'],
    [{ AI_BASE_URL: 'http://localhost:11434/v1', AI_MODEL: ' ' }, 'AI_MODEL'],
    [{ AI_MODEL: 'gpt-4o-mini' }, 'AI_BASE_URL'],
    [{ AI_API_KEY: 'sk-test-123' }, 'AI_BASE_URL'],
    [{ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'sk_test_abc' }, 'STRIPE_PUBLISHABLE_KEY'],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc' }, 'STRIPE_PUBLISHABLE_KEY'],
    [{ STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, 'STRIPE_SECRET_KEY'],
    [
      { STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_PUBLISHABLE_KEY: 'pk_test_a', STRIPE_WEBHOOK_SECRET: 'secret' },
      'STRIPE_WEBHOOK_SECRET',
    ],
    [
      { NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_a', STRIPE_PUBLISHABLE_KEY: 'pk_live_a' },
      'STRIPE_WEBHOOK_SECRET',
    ],
    [{ TIKTOK_PIXEL_ID: 'C4-not a code' }, 'TIKTOK_PIXEL_ID'],
    [{ TIKTOK_EVENTS_TOKEN: 'events-token-123' }, 'TIKTOK_PIXEL_ID'],
  ])('a bad value fails at start naming the variable: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  test("TRUST_PROXY is a hop count or the proxies' addresses, never a blanket true", () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/X-Forwarded-For/);
  });

  test('payments: the built-in test processor without Stripe keys; Stripe with both', () => {
    expect(loadConfig({}).stripe).toBeNull();
    expect(
      loadConfig({
        STRIPE_SECRET_KEY: 'sk_test_a',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_b',
        STRIPE_WEBHOOK_SECRET: 'whsec_c',
      }).stripe,
    ).toEqual({ secretKey: 'sk_test_a', publishableKey: 'pk_test_b', webhookSecret: 'whsec_c', apiBase: null });
  });

  test('STRIPE_API_BASE_URL points the Stripe client at a stand-in; CRASH_AT arms one crash point', () => {
    const keys = { STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_PUBLISHABLE_KEY: 'pk_test_b' };
    expect(loadConfig({ ...keys, STRIPE_API_BASE_URL: 'http://127.0.0.1:4010' }).stripe?.apiBase).toEqual({
      host: '127.0.0.1',
      port: 4010,
      protocol: 'http',
    });
    expect(loadConfig({ ...keys, STRIPE_API_BASE_URL: 'https://stripe.test' }).stripe?.apiBase).toEqual({
      host: 'stripe.test',
      port: 443,
      protocol: 'https',
    });
    expect(configProblem({ STRIPE_API_BASE_URL: 'ftp://stripe.test' })).toContain('STRIPE_API_BASE_URL');
    expect(loadConfig({}).crashAt).toBeNull();
    expect(loadConfig({ CRASH_AT: 'after-capture' }).crashAt).toBe('after-capture');
    expect(configProblem({ CRASH_AT: 'everywhere' })).toContain('CRASH_AT');
  });

  test('AI: built-in without AI_BASE_URL; an OpenAI-compatible server with it, the key optional', () => {
    expect(loadConfig({}).ai).toBeNull();
    expect(loadConfig({ AI_BASE_URL: 'http://localhost:11434/v1', AI_MODEL: 'llama3.1:8b' }).ai).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: null,
      model: 'llama3.1:8b',
    });
    expect(
      loadConfig({ AI_BASE_URL: 'https://api.openai.com/v1', AI_API_KEY: 'sk-test-123', AI_MODEL: 'gpt-4o-mini' }).ai,
    ).toEqual({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test-123', model: 'gpt-4o-mini' });
  });

  test('a configuration error never shows the AI key', () => {
    expect(() => loadConfig({ AI_API_KEY: 'sk-secret-value' })).toThrow(ConfigError);
    expect(() => loadConfig({ AI_API_KEY: 'sk-secret-value' })).not.toThrow(/sk-secret-value/);
  });

  test('images: on disk without S3_BUCKET; in the bucket with it and its key pair, half a setup refused', () => {
    expect(loadConfig({}).s3).toBeNull();
    const bucket = {
      S3_BUCKET: 'calm-images',
      S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      S3_SECRET_ACCESS_KEY: 's3-secret-value',
    };
    expect(loadConfig(bucket).s3).toEqual({
      bucket: 'calm-images',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 's3-secret-value',
      publicUrl: undefined,
    });
    expect(
      loadConfig({
        ...bucket,
        S3_ENDPOINT: 'http://localhost:9000',
        S3_REGION: 'auto',
        S3_PUBLIC_URL: 'https://cdn.example.com',
      }).s3,
    ).toMatchObject({ endpoint: 'http://localhost:9000', region: 'auto', publicUrl: 'https://cdn.example.com' });
    expect(() => loadConfig({ S3_BUCKET: 'calm-images' })).toThrow(
      /S3_ACCESS_KEY_ID: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'http://localhost:9000' })).toThrow(
      /S3_BUCKET: must be set when S3_ENDPOINT is/,
    );
    expect(() => loadConfig({ ...bucket, S3_BUCKET: 'a' })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ ...bucket, S3_ENDPOINT: 'ftp://store' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ ...bucket, NODE_ENV: 'production', S3_PUBLIC_URL: 'http://cdn.example.com' })).toThrow(
      /S3_PUBLIC_URL: must be an https:\/\/ URL in production/,
    );
    // The secret never shows in a configuration error.
    expect(() => loadConfig({ S3_SECRET_ACCESS_KEY: 's3-secret-value' })).not.toThrow(/s3-secret-value/);
  });

  test('PUBLIC_URL loses its trailing slash and an https address is kept', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example.com/' }).publicUrl).toBe('https://shop.example.com');
  });
});

import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { browserPath } from './scripts/browser-path.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
// Where the test server files the mail the shop sends (see e2e/serve.ts and e2e/mailbox.ts).
process.env.E2E_MAILBOX ??= path.resolve(`test-results/mailbox-${port}`);

/** The tests that change what every other test would see (see the projects below). */
const shopWide = /(^|\/)(newsletter|admin-products|admin-tiktok-shop-orders)\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // Room for an axe run on every page visited, on two cores shared by two browsers and the
  // server: under that load a long test's axe runs took more than 60 s.
  timeout: 90_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Every browser has answered the cookie banner (Deny) unless a test starts without it
    // (e2e/consent.spec.ts): the banner is that suite's subject, and elsewhere it would sit over the page.
    storageState: {
      cookies: [],
      origins: [
        {
          origin: `http://127.0.0.1:${port}`,
          localStorage: [{ name: 'stillwater.cookieConsent', value: '{"accepted":false}' }],
        },
      ],
    },
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: browserPath(),
      // Without these, Chromium tries to reach Google's services, which this network refuses.
      args: [
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'shop', testIgnore: shopWide },
    // These tests change what every shopper sees for a moment: shop-wide settings (double opt-in,
    // the newsletter itself) and the catalogue (products and categories made in the back office).
    // They run after every other test, so no checkout, registration or listing meets them by chance.
    { name: 'shop-wide settings', testMatch: shopWide, dependencies: ['shop'] },
  ],
  webServer: {
    command: 'node e2e/serve.ts',
    url: `http://127.0.0.1:${port}/readyz`,
    env: { PORT: String(port), HOST: '127.0.0.1' },
    timeout: 180_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});

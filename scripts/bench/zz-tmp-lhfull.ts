import { writeFileSync } from 'node:fs';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startShop, stopShop } from './shop.ts';

const shop = await startShop();
try {
  for (const p of ['/', '/products', '/product/desktop-fountain']) {
    for (let i = 0; i < 2; i++) {
      const chrome = await launch({
        chromePath: '/usr/bin/chromium',
        chromeFlags: [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
        ],
        logLevel: 'silent',
        handleSIGINT: false,
      });
      const r = await lighthouse(new URL(p, shop.url).href, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        extraHeaders: { 'x-forwarded-for': `10.200.0.${i + 1}${p.length}` },
      });
      chrome.kill();
      writeFileSync(`/tmp/lhr-${p.replaceAll('/', '_')}-${i}.json`, JSON.stringify(r!.lhr));
      console.log(p, i, r!.lhr.categories.performance.score);
    }
  }
} finally {
  await stopShop(shop);
}

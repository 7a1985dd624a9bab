import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * No accessibility violation on the page as it is now (axe-core, WCAG 2.2 A and AA plus best
 * practices). Call it on every page and state a test visits.
 */
export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary, `axe on ${page.url()}`).toEqual([]);
}

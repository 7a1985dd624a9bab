import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * No accessibility violation on the page as it is now (axe-core, WCAG 2.2 A and AA plus best
 * practices). Call it on every page and state a test visits.
 */
export async function expectAccessible(page: Page) {
  // A colour still in transition (a link's active style fading after a navigation) is neither
  // state's colour: axe judged one halfway once. Transitions end; infinite animations (spinners)
  // are left running.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
  const { violations } = await new AxeBuilder({ page }).analyze();
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary, `axe on ${page.url()}`).toEqual([]);
}

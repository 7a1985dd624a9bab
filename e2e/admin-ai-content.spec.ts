import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';

/*
 * The AI Content Generator modal (back-office spec 2, 5 and 9) on the built-in writer: its
 * presets, fields and options, its refusals, and the copy applied to the Edit Product form.
 */

test('AI Content Generator: presets, refusals, and the generated copy applied to the product form', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openAdmin(page, owner, 'products');

  // The Add Product modal without a marketplace id: nothing to write from.
  await page.getByRole('button', { name: 'Add Product' }).click();
  const add = page.getByRole('dialog', { name: 'Add Product' });
  await add.getByRole('button', { name: 'Open AI Content Generator' }).click();
  const generator = page.getByRole('dialog', { name: 'AI Content Generator' });
  await expect(generator.getByRole('group', { name: 'Presets' }).getByRole('button')).toHaveText([
    'Complete Product Info',
    'Description Only',
    'Features & Tags',
    'SEO Optimization',
    'Marketing Copy',
  ]);
  await expect(generator.getByRole('button', { name: 'Complete Product Info' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  for (const field of ['Title', 'Description', 'Features', 'Tags', 'SEO metadata']) {
    await expect(generator.getByRole('checkbox', { name: field })).toBeChecked();
  }
  await expect(generator.getByRole('checkbox', { name: 'Analyze product images' })).toBeChecked();
  await expect(generator.getByRole('checkbox', { name: 'Use existing data' })).toBeChecked();
  await expect(generator.getByLabel('Tone').locator('option')).toHaveText([
    'Professional',
    'Casual',
    'Enthusiastic',
    'Technical',
    'Luxury',
    'Friendly',
    'Minimalist',
  ]);
  await expectAccessible(page);
  await generator.getByRole('button', { name: 'Generate Content' }).click();
  await expect(generator.getByRole('alert')).toHaveText('Fetch product info first');

  // A preset sets the fields; none left is refused.
  await generator.getByRole('button', { name: 'Features & Tags' }).click();
  await expect(generator.getByRole('checkbox', { name: 'Title' })).not.toBeChecked();
  await generator.getByRole('checkbox', { name: 'Features' }).uncheck();
  await generator.getByRole('checkbox', { name: 'Tags' }).uncheck();
  await generator.getByRole('button', { name: 'Generate Content' }).click();
  await expect(generator.getByRole('alert')).toHaveText('Please select at least one field to generate');
  await expectAccessible(page);
  await generator.getByRole('button', { name: 'Cancel' }).click();
  await expect(generator).toHaveCount(0);
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toHaveCount(0);

  // Edit a seeded product: Description Only in the luxury tone replaces the description, and only it.
  await page.getByLabel('Search products by title or AliExpress ID').fill('Desktop Waterfall Fountain');
  await page.getByRole('button', { name: 'Edit Desktop Waterfall Fountain with LED Lighting' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  const description = edit.getByLabel('Description');
  await expect(description).toHaveValue(/Water slides down a sculpted rock face/);
  const title = await edit.getByLabel('Title (required)').inputValue();
  await edit.getByRole('button', { name: 'Open AI Content Generator' }).click();
  await generator.getByRole('button', { name: 'Description Only' }).click();
  await generator.getByLabel('Tone').selectOption('luxury');
  await generator.getByLabel('Target audience (optional)').fill('design lovers');
  await generator.getByRole('button', { name: 'Generate Content' }).click();
  await expect(generator).toHaveCount(0);
  await expect(description).toHaveValue(/exquisite piece/);
  await expect(description).toHaveValue(/Created for design lovers\./);
  await expect(edit.getByLabel('Title (required)')).toHaveValue(title);
  await expectAccessible(page);
  await edit.getByRole('button', { name: 'Cancel' }).click();
});

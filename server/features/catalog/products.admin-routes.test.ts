import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import type { AdminProduct } from '#common/contracts/admin/products.ts';
import { createDiskObjectStorage } from '#server/adapters/storage/disk-object-storage.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { storedEventsAbout } from '#server/features/events/stored-events.testing.ts';
import { orderItems } from '#server/features/orders/orders.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testMediaDir } from '#server/testing/test-environment.ts';
import { categories, products } from './catalog.tables.ts';

const { app, database } = await buildTestApp();
const { db } = database;
const storage = createDiskObjectStorage(testMediaDir);
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;

/** A browser signed in with a role; PATCH made by hand with the session and a fresh CSRF token, as the admin app does. */
async function signedIn(role: UserRole = 'admin', permissions: AdminPermissions = { uploadProducts: true }) {
  const { browser, id } = await signedInAs(app, db, role, permissions);
  counter += 1;
  const remoteAddress = `10.79.${Math.floor(counter / 200)}.${counter % 200}`;
  async function patch(url: string, payload?: unknown) {
    const token = (await browser.get('/api/auth/csrf-token')).json().token as string;
    const cookie = `sw_session=${browser.cookie('sw_session')}; sw_csrf=${browser.cookie('sw_csrf')}`;
    return app.inject({
      method: 'PATCH',
      url,
      remoteAddress,
      headers: { cookie, 'x-csrf-token': token },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }
  return { browser, patch, id };
}

/** A valid Add Product payload (money in cents). */
function productForm(overrides: Record<string, unknown> = {}) {
  return {
    title: `Linen Desk Tray ${unique()}`,
    description: 'A shallow tray of oiled oak and linen for the things a desk gathers.',
    price: 3400,
    aliId: '1005009000000001',
    categories: ['Decor'],
    tags: ['oak', '  ', 'tray'],
    features: ['Oiled oak', ''],
    ...overrides,
  };
}

const variant = (skuAttr: string, price: number, overrides: Record<string, unknown> = {}) => ({
  skuId: `9${skuAttr.replace(/\D/g, '')}`,
  skuAttr,
  name: `Colour ${skuAttr}`,
  price,
  stock: 5,
  ...overrides,
});

describe('POST /api/admin/products', () => {
  test('creates a product: slug from the title, lists cleaned, defaults, audit, event, and the storefront shows it', async () => {
    const { browser, id: adminId } = await signedIn();
    const form = productForm({ categories: ['  decor ', 'Quiet  Corners', 'quiet corners'] });
    const response = await browser.post('/api/admin/products', form);
    expect(response.statusCode).toBe(201);
    const { product, message } = response.json() as { product: AdminProduct; message: string };
    expect(message).toBe('Product created successfully');
    expect(product).toMatchObject({
      title: form.title,
      slug: form.title.toLowerCase().replaceAll(' ', '-'),
      status: 'active',
      variantLabel: 'Style',
      tags: ['oak', 'tray'],
      features: ['Oiled oak'],
      price: 3400,
      salePrice: null,
      aliId: '1005009000000001',
    });
    // An existing category is matched whatever its case; a new one is created once.
    expect(product.categories).toEqual(['Decor', 'Quiet Corners']);
    const [created] = await db.select().from(categories).where(eq(categories.name, 'Quiet Corners'));
    expect(created?.slug).toBe('quiet-corners');

    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'product'), eq(auditLog.entityId, product.id)));
    expect(audit).toMatchObject({ action: 'product.created', actorUserId: adminId });
    const [event] = await storedEventsAbout(db, product.id, 1);
    expect(event).toMatchObject({ type: 'product_created', collection: 'products' });

    // The public cache and the search index know it at once.
    const page = await browser.get(`/api/products/${product.slug}`);
    expect(page.statusCode).toBe(200);
    const found = await browser.get(`/api/products/search/${encodeURIComponent(form.title.split(' ').at(-1) ?? '')}`);
    expect(found.json().products.map((p: { id: string }) => p.id)).toContain(product.id);
  });

  test("the spec's messages for a missing title, price and marketplace id", async () => {
    const { browser } = await signedIn();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '   ' }, 'Product title is required'],
      [{ title: undefined }, 'Product title is required'],
      [{ price: 0 }, 'Valid price is required'],
      [{ price: 12.5 }, 'Valid price is required'],
      [{ price: 'ten' }, 'Valid price is required'],
      [{ aliId: '' }, 'AliExpress Product ID is required'],
      [{ aliId: undefined }, 'AliExpress Product ID is required'],
    ];
    for (const [overrides, message] of cases) {
      const response = await browser.post('/api/admin/products', productForm(overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error, JSON.stringify(overrides)).toContain(message);
    }
  });

  test('bad input is refused naming the field, and nothing is written', async () => {
    const { browser } = await signedIn();
    const before = (await db.select({ id: products.id }).from(products)).length;
    const bad: Record<string, unknown>[] = [
      { title: 'Nul\u0000Tray' },
      { slug: 'Not A Slug!' },
      { aliId: '10050abc' },
      { status: 'archived' },
      { salePrice: -1 },
      { images: ['javascript:alert(1)'] },
      { images: ['//evil.example/x.png'] },
      { skuVariants: [variant('1', 0)] },
      { skuVariants: [variant('1', 500, { stock: -1 })] },
      { skuVariants: [variant('1', 500, { name: '' })] },
      { skuVariants: [variant('1', 500, { images: Array.from({ length: 9 }, (_, i) => `/media/x/${i}.webp`) })] },
      { tags: Array.from({ length: 31 }, (_, i) => `t${i}`) },
    ];
    for (const overrides of bad) {
      const response = await browser.post('/api/admin/products', productForm(overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().code).toBe('invalid_input');
    }
    expect((await db.select({ id: products.id }).from(products)).length).toBe(before);
  });

  test('the SKU messages of the editor come back from the server too', async () => {
    const { browser } = await signedIn();
    const cases: [Record<string, unknown>, string][] = [
      [variant('1', 0), 'Price must be greater than 0.'],
      [variant('1', 500, { stock: -2 }), 'Stock must be ≥ 0.'],
      [variant('1', 500, { skuAttr: ' ' }), 'Name and AliExpress SKU (skuAttr) are required.'],
    ];
    for (const [sku, message] of cases) {
      const response = await browser.post('/api/admin/products', productForm({ skuVariants: [sku] }));
      expect(response.json().error).toContain(message);
    }
    const twice = await browser.post(
      '/api/admin/products',
      productForm({ skuVariants: [variant('1:1', 500), variant('1:1', 600)] }),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toContain('This AliExpress SKU is already added.');
  });

  test('slugs stay unique: the same title twice, at once, gets -2; a slug given twice is a 409', async () => {
    const { browser } = await signedIn();
    const title = `Still Pond Coaster ${unique()}`;
    const [first, second] = await Promise.all([
      browser.post('/api/admin/products', productForm({ title })),
      browser.post('/api/admin/products', productForm({ title })),
    ]);
    expect([first?.statusCode, second?.statusCode]).toEqual([201, 201]);
    const slugs = [first?.json().product.slug, second?.json().product.slug].sort();
    const base = title.toLowerCase().replaceAll(' ', '-');
    expect(slugs).toEqual([base, `${base}-2`]);

    const again = await browser.post('/api/admin/products', productForm({ slug: base }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'slug_taken',
      error: `The URL slug "${base}" is already used by another product`,
    });
  });

  test('one active SKU takes the product price; stock is the active SKUs’ sum', async () => {
    const { browser } = await signedIn();
    const response = await browser.post(
      '/api/admin/products',
      productForm({
        price: 2900,
        salePrice: 2500,
        skuVariants: [variant('14:1', 1000, { stock: 7 }), variant('14:2', 1100, { stock: 3, isActive: false })],
      }),
    );
    const { product } = response.json() as { product: AdminProduct };
    expect(product.skuVariants.map((v) => [v.price, v.salePrice, v.isActive])).toEqual([
      [2900, 2500, true],
      [1100, null, false],
    ]);
    expect(product.stock).toBe(7);
    expect(product.sku).toBe('9141');
  });
});

describe('PATCH /api/admin/products/:id', () => {
  async function created(browser: Awaited<ReturnType<typeof signedIn>>['browser'], overrides = {}) {
    const response = await browser.post('/api/admin/products', productForm(overrides));
    expect(response.statusCode).toBe(201);
    return response.json().product as AdminProduct;
  }

  test('changes only what it is given; an empty slug keeps the current one', async () => {
    const { browser, patch } = await signedIn();
    const product = await created(browser);
    const response = await patch(`/api/admin/products/${product.id}`, { title: 'Renamed Tray', slug: '' });
    expect(response.statusCode).toBe(200);
    const after = response.json().product as AdminProduct;
    expect(after).toMatchObject({ title: 'Renamed Tray', slug: product.slug, price: product.price });
    expect(after.categories).toEqual(product.categories);
    const [event] = (await storedEventsAbout(db, product.id, 2)).slice(-1);
    expect(event?.type).toBe('product_updated');

    const renamed = await patch(`/api/admin/products/${product.id}`, { slug: `renamed-tray-${unique()}` });
    expect((await browser.get(`/api/products/${renamed.json().product.slug}`)).statusCode).toBe(200);
    expect((await browser.get(`/api/products/${product.slug}`)).statusCode).toBe(404);
  });

  test('a search read before an edit sees the edit at once, on pages it had not served yet', async () => {
    const { browser, patch } = await signedIn();
    const word = `quokka${unique()}`;
    const product = await created(browser, { title: `Tray ${word}` });
    // Each read a new page size: no answer kept whole, only the term's ranking, could serve it.
    let limit = 0;
    const found = async (term: string) =>
      (await browser.get(`/api/products/search/${term}?limit=${++limit}`))
        .json()
        .products.map((summary: { id: string }) => summary.id);
    expect(await found(word)).toEqual([product.id]);
    expect(await found(word)).toEqual([product.id]);
    const renamed = `wombat${unique()}`;
    expect((await patch(`/api/admin/products/${product.id}`, { title: `Tray ${renamed}` })).statusCode).toBe(200);
    expect(await found(word)).toEqual([]);
    expect(await found(renamed)).toEqual([product.id]);
    expect((await patch(`/api/admin/products/${product.id}`, { status: 'inactive' })).statusCode).toBe(200);
    expect(await found(renamed)).toEqual([]);
  });

  test('a new price with several SKUs overwrites every SKU price (the form confirms first)', async () => {
    const { browser, patch } = await signedIn();
    const product = await created(browser, {
      skuVariants: [variant('5:1', 1000), variant('5:2', 1200), variant('5:3', 1300)],
    });
    const same = await patch(`/api/admin/products/${product.id}`, { title: 'Same price' });
    expect(same.json().product.skuVariants.map((v: { price: number }) => v.price)).toEqual([1000, 1200, 1300]);
    const changed = await patch(`/api/admin/products/${product.id}`, { price: 4500 });
    expect(changed.json().product.skuVariants.map((v: { price: number }) => v.price)).toEqual([4500, 4500, 4500]);
  });

  test('unknown, malformed and bad edits', async () => {
    const { patch } = await signedIn();
    expect((await patch('/api/admin/products/0123456789abcdef', { title: 'x' })).statusCode).toBe(404);
    expect((await patch('/api/admin/products/not-an-id', { title: 'x' })).statusCode).toBe(400);
    const [any] = await db.select({ id: products.id }).from(products).limit(1);
    const bad = await patch(`/api/admin/products/${any?.id}`, { price: -5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Valid price is required');
  });

  test('stored images the product no longer uses are removed from storage, with their renditions', async () => {
    const { browser, patch } = await signedIn();
    const key = `products/${unique()}/image-1-1-abcdef.webp`;
    await storage.put(key, Buffer.from('webp'), 'image/webp');
    await storage.put(key.replace('.webp', '-400w.webp'), Buffer.from('webp'), 'image/webp');
    const url = storage.publicUrl(key);
    const product = await created(browser, { images: [url] });
    expect(product.images).toEqual([url]);
    await patch(`/api/admin/products/${product.id}`, { images: [] });
    expect(await storage.get(key)).toBeNull();
    expect(await storage.get(key.replace('.webp', '-400w.webp'))).toBeNull();
  });
});

describe('DELETE /api/admin/products/:id', () => {
  test('a product without orders is deleted; one with orders is archived and leaves the storefront', async () => {
    const { browser } = await signedIn();
    const plain = (await browser.post('/api/admin/products', productForm())).json().product as AdminProduct;
    const deleted = await browser.delete(`/api/admin/products/${plain.id}`);
    expect(deleted.json()).toEqual({ message: 'Product deleted successfully', archived: false });
    expect((await browser.get(`/api/admin/products/${plain.id}`)).statusCode).toBe(404);
    expect((await browser.delete(`/api/admin/products/${plain.id}`)).statusCode).toBe(404);
    const events = await storedEventsAbout(db, plain.id, 2);
    expect(events.at(-1)?.type).toBe('product_deleted');

    const [ordered] = await db
      .selectDistinct({ id: orderItems.productId })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(eq(products.status, 'active'))
      .limit(1);
    const id = ordered?.id as string;
    const [row] = await db.select({ slug: products.slug }).from(products).where(eq(products.id, id));
    const archived = await browser.delete(`/api/admin/products/${id}`);
    expect(archived.json()).toMatchObject({ archived: true });
    expect((await browser.get(`/api/admin/products/${id}`)).json().status).toBe('archived');
    expect((await browser.get(`/api/products/${row?.slug}`)).statusCode).toBe(404);
    const listed = await browser.get('/api/admin/products?search=&sortBy=createdAt&limit=100');
    expect(listed.statusCode).toBe(200);
  });

  test('an admin without uploadProducts is told the delete sentence', async () => {
    const { browser } = await signedIn('admin', { downloadXlsx: true });
    const response = await browser.delete('/api/admin/products/0123456789abcdef');
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe("You don't have permission to delete products.");
  });
});

describe('GET /api/admin/products', () => {
  test('every status, 10 a page, searched, filtered by category and sorted either way', async () => {
    const { browser, patch } = await signedIn();
    const tag = unique();
    const made: AdminProduct[] = [];
    for (const [index, status] of (['active', 'draft', 'inactive'] as const).entries()) {
      const response = await browser.post(
        '/api/admin/products',
        productForm({ title: `Zen ${tag} ${index}`, status, price: 1000 + index, categories: [`Cat ${tag}`] }),
      );
      made.push(response.json().product);
    }
    await patch(`/api/admin/products/${made[0]?.id}`, { categories: [] });

    const all = await browser.get(`/api/admin/products?search=${tag}&sortBy=price&sortOrder=asc`);
    expect(all.headers['cache-control']).toBe('private, no-store');
    const body = all.json() as { products: AdminProduct[]; pagination: { total: number; page: number } };
    expect(body.products.map((p) => p.status)).toEqual(['active', 'draft', 'inactive']);
    expect(body.pagination).toMatchObject({ total: 3, page: 1 });
    const desc = await browser.get(`/api/admin/products?search=${tag}&sortBy=price&sortOrder=desc`);
    expect(desc.json().products.map((p: AdminProduct) => p.price)).toEqual([1002, 1001, 1000]);

    const inCategory = await browser.get(`/api/admin/products?categoryFilter=${encodeURIComponent(`cat ${tag}`)}`);
    expect(inCategory.json().products.map((p: AdminProduct) => p.title)).toEqual([`Zen ${tag} 2`, `Zen ${tag} 1`]);

    const first = await browser.get('/api/admin/products');
    expect(first.json().products).toHaveLength(10);
    for (const sortBy of ['title', 'price', 'stock', 'sales', 'createdAt']) {
      expect((await browser.get(`/api/admin/products?sortBy=${sortBy}&sortOrder=asc`)).statusCode).toBe(200);
    }
    // % and _ are taken literally.
    expect((await browser.get('/api/admin/products?search=%25')).json().products).toEqual([]);
  });

  test('the count of every product follows each create and delete at once (it is kept between reads)', async () => {
    const { browser } = await signedIn();
    const totalNow = async () => (await browser.get('/api/admin/products')).json().pagination.total as number;
    const before = await totalNow();
    expect(await totalNow()).toBe(before);
    const created = (await browser.post('/api/admin/products', productForm())).json().product as AdminProduct;
    expect(await totalNow()).toBe(before + 1);
    await browser.delete(`/api/admin/products/${created.id}`);
    expect(await totalNow()).toBe(before);
  });

  test('bad queries are refused naming the field', async () => {
    const { browser } = await signedIn();
    for (const query of [
      'sortBy=rating',
      'sortOrder=up',
      'page=0',
      'limit=101',
      `search=${'x'.repeat(101)}`,
      'search=a%00b',
    ]) {
      const response = await browser.get(`/api/admin/products?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });

  test('the categories to pick from, with their product counts', async () => {
    const { browser } = await signedIn();
    const response = await browser.get('/api/admin/categories');
    expect(response.statusCode).toBe(200);
    const { categories: list } = response.json() as { categories: { name: string; productCount: number }[] };
    expect(list.length).toBeGreaterThan(3);
    expect(list.find((c) => c.name === 'Decor')?.productCount).toBeGreaterThan(0);
  });
});

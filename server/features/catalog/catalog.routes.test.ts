import { describe, expect, test } from 'vitest';
import { seedCategories } from '#seed/categories.ts';
import { buildTestApp } from '#server/testing/test-app.ts';

const { app } = await buildTestApp();
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /api/products', () => {
  test('lists active products with pagination', async () => {
    const response = await get('/api/products?page=1&limit=10');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.products).toHaveLength(10);
    expect(body.pagination).toEqual({ page: 1, pages: 3, total: 26, limit: 10 });
    const last = (await get('/api/products?page=3&limit=10')).json();
    expect(last.products).toHaveLength(6);
    const ids = new Set([...body.products, ...last.products].map((p: { id: string }) => p.id));
    expect(ids.size).toBe(16);
  });

  test('a product carries prices in cents, variants, categories, images and its rating', async () => {
    const { products } = (await get('/api/products?limit=100')).json();
    const fountain = products.find((p: { slug: string }) => p.slug === 'desktop-fountain');
    expect(fountain).toMatchObject({ price: 12998, salePrice: 7799, status: 'active', variantLabel: 'Stone finish' });
    expect(fountain.categories).toEqual(['Fountains', 'New Releases']);
    expect(fountain.skuVariants.length).toBe(4);
    expect(fountain.images.length).toBeGreaterThanOrEqual(3);
    expect(fountain.rating.count).toBe(70);
    expect(fountain).not.toHaveProperty('discountCodes');
  });

  test('filters by category slug or name', async () => {
    const bySlug = (await get('/api/products?category=fountains&limit=100')).json();
    const byName = (await get('/api/products?category=Fountains&limit=100')).json();
    expect(bySlug.pagination.total).toBeGreaterThan(2);
    expect(bySlug.products.map((p: { id: string }) => p.id)).toEqual(byName.products.map((p: { id: string }) => p.id));
    expect(bySlug.products.every((p: { categories: string[] }) => p.categories.includes('Fountains'))).toBe(true);
    expect((await get('/api/products?category=unknown')).json().pagination.total).toBe(0);
  });

  test("a category's pages, read from its own rows, are the whole listing's products of that category in order", async () => {
    type Listed = { products: { id: string; categories: string[] }[]; pagination: { total: number } };
    const all = (await get('/api/products?limit=100')).json() as Listed;
    for (const category of seedCategories) {
      const expected = all.products.filter((p) => p.categories.includes(category.name)).map((p) => p.id);
      const paged: string[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / 3) + 1; page++) {
        const body = (await get(`/api/products?category=${category.slug}&limit=3&page=${page}`)).json() as Listed;
        expect(body.pagination.total).toBe(expected.length);
        paged.push(...body.products.map((p) => p.id));
      }
      expect(paged).toEqual(expected);
    }
  });

  test.each([
    ['page=0', 'page'],
    ['page=1.5', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['category=', 'category'],
  ])('bad query %s gets 400 naming %s', async (query, field) => {
    const response = await get(`/api/products?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field });
  });
});

describe('GET /api/products/search/:term', () => {
  test.each(['fountain', 'fontain', 'led fountan', 'waterfal', 'FOUNTAIN'])(
    '"%s" finds the desktop fountain',
    async (term) => {
      const { products } = (await get(`/api/products/search/${encodeURIComponent(term)}`)).json();
      expect(products.map((p: { slug: string }) => p.slug)).toContain('desktop-fountain');
    },
  );

  test('ranks by relevance: the closest title first', async () => {
    const { products } = (await get('/api/products/search/moon%20lamp')).json();
    expect(products[0].slug).toBe('moon-lamp');
    const charger = (await get('/api/products/search/wireless%20charger')).json();
    expect(charger.products[0].slug).toBe('wireless-charger');
  });

  test("a term's pages, one product each, are its first page in order", async () => {
    const whole = (await get('/api/products/search/lamp')).json();
    expect(whole.products.length).toBeGreaterThan(2);
    const oneByOne = [];
    for (let page = 1; page <= whole.pagination.total + 1; page++) {
      const { products, pagination } = (await get(`/api/products/search/LAMP?page=${page}&limit=1`)).json();
      expect(pagination.total).toBe(whole.pagination.total);
      oneByOne.push(...products.map((p: { id: string }) => p.id));
    }
    expect(oneByOne).toEqual(whole.products.map((p: { id: string }) => p.id));
  });

  test('finds nothing for unrelated words', async () => {
    const body = (await get('/api/products/search/xylophone')).json();
    expect(body).toEqual({ products: [], pagination: { page: 1, pages: 1, total: 0, limit: 24 } });
  });

  test('a blank term or a bad limit is refused', async () => {
    expect((await get('/api/products/search/%20%20')).statusCode).toBe(400);
    const bad = await get('/api/products/search/lamp?limit=500');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('limit');
  });
});

describe('GET /api/products/:id and /by-id/:id', () => {
  test('by slug and by id give the same product', async () => {
    const bySlug = (await get('/api/products/desktop-fountain')).json();
    const byId = (await get(`/api/products/${bySlug.id}`)).json();
    const byIdRoute = (await get(`/api/products/by-id/${bySlug.id}`)).json();
    expect(byId).toEqual(bySlug);
    expect(byIdRoute).toEqual(bySlug);
  });

  test('an unknown product is a 404 with the spec message', async () => {
    for (const url of ['/api/products/nope', '/api/products/by-id/0123456789abcdef']) {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Product not found', code: 'not_found' });
    }
  });
});

describe('caching', () => {
  test('public reads carry ETag and Cache-Control and answer 304 to a matching If-None-Match', async () => {
    const first = await get('/api/products/desktop-fountain');
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/api/products/desktop-fountain', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get('/api/products/desktop-fountain', { 'if-none-match': '"stale"' });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).toBe(etag);
  });
});

describe('GET /api/categories', () => {
  test('the seven categories in navigation order with their product counts', async () => {
    const { categories } = (await get('/api/categories')).json();
    expect(categories.map((c: { name: string }) => c.name)).toEqual(seedCategories.map((c) => c.name));
    expect(categories[0]).toEqual({ name: 'New Releases', slug: 'new-releases', productCount: expect.any(Number) });
    expect(categories.every((c: { productCount: number }) => c.productCount > 0)).toBe(true);
  });
});

describe('sitemap and robots', () => {
  test('the sitemap lists every active product and category', async () => {
    const response = await get('/sitemap.xml');
    expect(response.headers['content-type']).toContain('application/xml');
    const locs = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.filter((loc) => loc?.includes('/product/'))).toHaveLength(26);
    expect(locs).toContain('http://localhost:3000/products?category=fountains');
    expect(locs).toContain('http://localhost:3000/product/desktop-fountain');
  });

  test('robots.txt points at the sitemap and keeps private pages out', async () => {
    const body = (await get('/robots.txt')).body;
    expect(body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    expect(body).toContain('Disallow: /admin');
  });
});

import type { FastifyPluginAsync } from 'fastify';
import type { CatalogService } from './catalog.service.ts';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/** /sitemap.xml (every active product and category, and the static pages) and /robots.txt. */
export const seoRoutes: FastifyPluginAsync<{ catalog: CatalogService; publicUrl: string }> = async (
  app,
  { catalog, publicUrl },
) => {
  app.get('/sitemap.xml', async (_request, reply) => {
    const entries: { path: string; lastmod?: string }[] = [
      { path: '/' },
      { path: '/products' },
      { path: '/privacy' },
      { path: '/returns' },
      { path: '/terms-and-conditions' },
    ];
    for (const category of await catalog.listCategories())
      entries.push({ path: `/products?category=${category.slug}` });
    for (let page = 1, pages = 1; page <= pages; page++) {
      const list = await catalog.listProducts({ page, limit: 100 });
      pages = list.pagination.pages;
      for (const product of list.products) {
        entries.push({ path: `/product/${product.slug}`, lastmod: product.createdAt.slice(0, 10) });
      }
    }
    const urls = entries
      .map(
        (entry) =>
          `  <url><loc>${escapeXml(publicUrl + entry.path)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ''}</url>`,
      )
      .join('\n');
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  });

  app.get('/robots.txt', async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400');
    return [
      'User-agent: *',
      'Disallow: /admin',
      'Disallow: /account',
      'Disallow: /cart',
      'Disallow: /api/',
      'Allow: /',
      '',
      `Sitemap: ${publicUrl}/sitemap.xml`,
      '',
    ].join('\n');
  });
};

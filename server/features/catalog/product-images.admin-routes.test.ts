import { crc32, deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import { productMessages } from '#common/product-rules.ts';
import { createDiskObjectStorage } from '#server/adapters/storage/disk-object-storage.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testMediaDir } from '#server/testing/test-environment.ts';
import { products } from './catalog.tables.ts';
import { safeImageName, sniffImageKind } from './product-images.ts';

const { app, database } = await buildTestApp();
const { db } = database;
const storage = createDiskObjectStorage(testMediaDir);
let counter = 0;

/** A browser signed in with a role, sending raw bodies with the session and a fresh CSRF token as the image manager does. */
async function signedIn(role: UserRole = 'admin', permissions: AdminPermissions = { uploadProducts: true }) {
  const { browser, id } = await signedInAs(app, db, role, permissions);
  counter += 1;
  const remoteAddress = `10.79.${Math.floor(counter / 200)}.${counter % 200}`;
  async function post(
    url: string,
    body: Buffer | string | object | undefined,
    { contentType = 'image/png', csrf = true }: { contentType?: string | null; csrf?: boolean } = {},
  ) {
    const token = (await browser.get('/api/auth/csrf-token')).json().token as string;
    const cookie = `sw_session=${browser.cookie('sw_session')}; sw_csrf=${browser.cookie('sw_csrf')}`;
    return app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: {
        cookie,
        ...(csrf ? { 'x-csrf-token': token } : {}),
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      ...(body === undefined ? {} : { payload: body }),
    });
  }
  return { browser, post, id };
}

const productId = (await db.select({ id: products.id }).from(products).limit(1))[0]?.id ?? '';
const uploadUrl = (query = `productId=${productId}&n=1`) => `/api/admin/product-images?${query}`;

const photo = (format: 'jpeg' | 'png' | 'webp' | 'gif', width = 900, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 160 } } })
    .toFormat(format)
    .toBuffer();

/** A PNG chunk: length, type, data, CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG whose header claims width × height (8-bit grey); only its first rows are there. */
function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc((width + 1) * 4))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const keyOf = (url: string) => url.replace(/^\/media\//, '');

async function storedBytes(url: string) {
  const object = await storage.get(keyOf(url));
  expect(object, `${url} is stored`).not.toBeNull();
  return object?.body ?? Buffer.alloc(0);
}

const auditRows = (action: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'product_image'), eq(auditLog.action, action)));

describe('POST /api/admin/product-images', () => {
  test('stores a JPEG as WebP renditions under products/{productId}/image-{n}-{timestamp}, and audits it', async () => {
    const { post, id } = await signedIn();
    const response = await post(uploadUrl(), await photo('jpeg', 1600, 1200), { contentType: 'image/jpeg' });
    expect(response.statusCode).toBe(201);
    const body = response.json() as { url: string; width: number; height: number };
    expect(body.url).toMatch(new RegExp(`^/media/products/${productId}/image-1-\\d{13}-[0-9a-f]{12}\\.webp$`));
    expect(body).toMatchObject({ width: 1200, height: 900 });
    for (const [url, width] of [
      [body.url, 1200],
      [body.url.replace(/\.webp$/, '-800w.webp'), 800],
      [body.url.replace(/\.webp$/, '-400w.webp'), 400],
    ] as const) {
      const bytes = await storedBytes(url);
      expect(sniffImageKind(bytes)).toBe('webp');
      expect((await sharp(bytes).metadata()).width).toBe(width);
    }
    const [row] = (await auditRows('product_image.uploaded')).filter((entry) => entry.actorUserId === id);
    expect(row).toMatchObject({ entityId: productId, details: { key: keyOf(body.url), width: 1200, height: 900 } });
  });

  test('a product being created goes to drafts/{aliId}, or drafts/new without one', async () => {
    const { post } = await signedIn();
    const withAli = await post(uploadUrl('aliId=1005006123456789&n=0'), await photo('png', 300, 200));
    expect(withAli.statusCode).toBe(201);
    expect(withAli.json().url).toMatch(/^\/media\/drafts\/1005006123456789\/image-0-\d+-[0-9a-f]{12}\.webp$/);
    const bare = await post(uploadUrl('n=3'), await photo('webp', 300, 200), { contentType: 'image/webp' });
    expect(bare.statusCode).toBe(201);
    expect(bare.json()).toMatchObject({ width: 300, height: 200 });
    expect(bare.json().url).toMatch(/^\/media\/drafts\/new\/image-3-/);
    // Smaller than every rendition: each narrower file is the image itself, never upscaled.
    expect((await sharp(await storedBytes(bare.json().url.replace(/\.webp$/, '-400w.webp'))).metadata()).width).toBe(
      300,
    );
  });

  test('a PNG carrying a script in a text chunk comes out as a clean WebP', async () => {
    const { post } = await signedIn();
    const png = await photo('png', 64, 64);
    const script = Buffer.from('Comment\0<script>alert(document.cookie)</script>', 'latin1');
    // The text chunk goes right after IHDR (8-byte signature + 25-byte IHDR chunk).
    const hostile = Buffer.concat([png.subarray(0, 33), pngChunk('tEXt', script), png.subarray(33)]);
    expect(hostile.includes('<script>')).toBe(true);
    const response = await post(uploadUrl(), hostile);
    expect(response.statusCode).toBe(201);
    const stored = await storedBytes(response.json().url);
    expect(sniffImageKind(stored)).toBe('webp');
    expect(stored.includes('script')).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
  });

  test('a JPEG that is also an HTML page (a polyglot) comes out as a clean WebP', async () => {
    const { post } = await signedIn();
    const jpeg = await sharp(await photo('jpeg', 64, 64))
      .withMetadata({ exif: { IFD0: { ImageDescription: '<img src=x onerror=alert(1)>' } } })
      .jpeg()
      .toBuffer();
    const html = Buffer.from('<html><body><script>alert(document.domain)</script></body></html>', 'latin1');
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, html.length + 2]), html]);
    const polyglot = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2), html]);
    const response = await post(uploadUrl(), polyglot, { contentType: 'image/jpeg' });
    expect(response.statusCode).toBe(201);
    const stored = await storedBytes(response.json().url);
    expect(sniffImageKind(stored)).toBe('webp');
    for (const marker of ['<html', 'script', 'onerror']) expect(stored.includes(marker)).toBe(false);
    const metadata = await sharp(stored).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.comments).toBeUndefined();
  });

  test('a 50,000 × 50,000 pixel PNG is refused from its header, at once', async () => {
    const { post } = await signedIn();
    const bomb = pngClaiming(50_000, 50_000);
    expect(bomb.length).toBeLessThan(10_000);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const response = await post(uploadUrl(), bomb);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 2 ** 20);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'too_many_pixels' });
    expect(response.json().error).toMatch(/at most 40 million pixels/);
  });

  test('a JPEG whose header claims 60,000 × 60,000 pixels is refused the same way', async () => {
    const { post } = await signedIn();
    const jpeg = Buffer.from(await photo('jpeg', 16, 16));
    // The frame header (SOF0, FF C0): length (2), precision (1), height (2), width (2).
    const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(frame).toBeGreaterThan(0);
    jpeg.writeUInt16BE(60_000, frame + 5);
    jpeg.writeUInt16BE(60_000, frame + 7);
    const response = await post(uploadUrl(), jpeg, { contentType: 'image/jpeg' });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('too_many_pixels');
  });

  test('the bytes decide, never the content type: a GIF or an SVG sent as a PNG is refused, a PNG sent as a JPEG is stored', async () => {
    const { post } = await signedIn();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    for (const body of [await photo('gif', 20, 20), svg, html, Buffer.from('just some text')]) {
      const response = await post(uploadUrl(), body);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: productMessages.imageType, code: 'not_an_image' });
    }
    // A PNG signature on bytes that are not a PNG does not decode.
    const fake = Buffer.concat([(await photo('png', 10, 10)).subarray(0, 8), Buffer.alloc(200, 7)]);
    const broken = await post(uploadUrl(), fake);
    expect(broken.statusCode).toBe(422);
    expect(broken.json().code).toBe('undecodable');
    const png = await post(uploadUrl(), await photo('png', 30, 30), { contentType: 'image/jpeg' });
    expect(png.statusCode).toBe(201);
  });

  test('any other content type is refused with 415 and the spec sentence', async () => {
    const { post } = await signedIn();
    const gif = await photo('gif', 20, 20);
    for (const contentType of ['image/gif', 'image/svg+xml', 'text/html', 'application/json', 'multipart/form-data']) {
      const response = await post(uploadUrl(), gif, { contentType });
      expect(response.statusCode, contentType).toBe(415);
      expect(response.json()).toMatchObject({ error: productMessages.imageType, code: 'unsupported_image_type' });
    }
    const untyped = await post(uploadUrl(), gif, { contentType: null });
    expect(untyped.statusCode).toBe(415);
  });

  test('an empty body is a 400; a body over 5 MB is a 413 with the spec sentence', async () => {
    const { post } = await signedIn();
    const empty = await post(uploadUrl(), Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('empty_body');
    const big = await post(uploadUrl(), Buffer.alloc(6 * 1024 * 1024, 1), { contentType: 'image/jpeg' });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: productMessages.imageSize, code: 'image_too_large' });
  });

  test("a product that does not exist is a 404 (a draft's folder needs none)", async () => {
    const { post } = await signedIn();
    const response = await post(uploadUrl('productId=0123456789abcdef&n=1'), await photo('png', 10, 10));
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('Product not found: 0123456789abcdef');
  });

  test('bad query parameters are 400s naming the field', async () => {
    const { post } = await signedIn();
    const image = await photo('png', 10, 10);
    for (const [query, field] of [
      ['productId=XYZ&n=1', 'productId'],
      [`productId=${productId}`, 'n'],
      [`productId=${productId}&n=-1`, 'n'],
      [`productId=${productId}&n=1.5`, 'n'],
      [`productId=${productId}&n=abc`, 'n'],
      ['aliId=12ab&n=1', 'aliId'],
      ['aliId=../../etc&n=1', 'aliId'],
    ] as const) {
      const response = await post(uploadUrl(query), image);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field, query).toBe(field);
    }
  });

  test.each([
    ['a visitor', null, 401],
    ['a shopper', { role: 'user', permissions: {} }, 403],
    ['an admin without uploadProducts', { role: 'admin', permissions: { downloadXlsx: true } }, 403],
    ['an admin with uploadProducts', { role: 'admin', permissions: { uploadProducts: true } }, 201],
    ['the owner', { role: 'owner', permissions: {} }, 201],
  ] as const)('%s: %i', async (_who, as, status) => {
    const image = await photo('png', 12, 12);
    if (!as) {
      const response = await app.inject({
        method: 'POST',
        url: uploadUrl(),
        headers: { 'content-type': 'image/png' },
        payload: image,
      });
      // The CSRF check comes first for a visitor with no cookie at all.
      expect([401, 403]).toContain(response.statusCode);
      return;
    }
    const { post } = await signedIn(as.role, as.permissions);
    const response = await post(uploadUrl(), image);
    expect(response.statusCode).toBe(status);
    if (status === 403) expect(response.json().error).toBe("You don't have permission to manage products.");
  });

  test('without the CSRF token an upload is refused', async () => {
    const { post } = await signedIn();
    const response = await post(uploadUrl(), await photo('png', 12, 12), { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('csrf_invalid');
  });
});

describe('POST /api/admin/product-images/rename', () => {
  async function uploaded(post: Awaited<ReturnType<typeof signedIn>>['post']) {
    const response = await post(uploadUrl(`productId=${productId}&n=7`), await photo('jpeg', 1000, 500), {
      contentType: 'image/jpeg',
    });
    expect(response.statusCode).toBe(201);
    return response.json().url as string;
  }
  const rename = (post: Awaited<ReturnType<typeof signedIn>>['post'], body: object) =>
    post('/api/admin/product-images/rename', body, { contentType: 'application/json' });

  test('copies every rendition to the new name in the same folder (extension stripped, a safe file name) and answers its URL', async () => {
    const { post, id } = await signedIn();
    const url = await uploaded(post);
    const response = await rename(post, { url, name: '  Blue Mug, Side View.JPG ' });
    expect(response.statusCode).toBe(200);
    const renamed = response.json().url as string;
    expect(renamed).toMatch(new RegExp(`^/media/products/${productId}/blue-mug-side-view-[0-9a-f]{12}\\.webp$`));
    for (const suffix of ['.webp', '-800w.webp', '-400w.webp']) {
      const copy = await storedBytes(renamed.replace(/\.webp$/, suffix));
      expect(copy.equals(await storedBytes(url.replace(/\.webp$/, suffix)))).toBe(true);
    }
    // The old files stay until the product is saved without them.
    expect(await storage.get(keyOf(url))).not.toBeNull();
    const rows = (await auditRows('product_image.renamed')).filter((entry) => entry.actorUserId === id);
    expect(rows[0]?.details).toEqual({ from: keyOf(url), to: keyOf(renamed) });
    // The same name again gives the same URL (the same bytes).
    expect((await rename(post, { url, name: 'blue mug side view' })).json().url).toBe(renamed);
  });

  test('a name that is empty once its extension is stripped and it is trimmed is a 400', async () => {
    const { post } = await signedIn();
    const url = await uploaded(post);
    for (const name of ['', '   ', '.jpg', '  .webp  ']) {
      const response = await rename(post, { url, name });
      expect(response.statusCode, JSON.stringify(name)).toBe(400);
      expect(response.json().field).toBe('name');
    }
  });

  test("only this shop's product and draft images: anything else is a 400, a missing one a 404", async () => {
    const { post } = await signedIn();
    for (const url of [
      'https://ae01.alicdn.com/kf/abc.jpg',
      `//evil.example/media/products/${productId}/x.webp`,
      '/media/reviews/abc/x.webp',
      `/media/products/${productId}/../../etc/passwd.webp`,
      `/media/products/${productId}/x.png`,
      `/media/products/${productId}/x-400w.webp`,
      '/media/products/x.webp',
    ]) {
      const response = await rename(post, { url, name: 'new name' });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().field, url).toBe('url');
    }
    const missing = await rename(post, { url: `/media/products/${productId}/never-stored.webp`, name: 'x' });
    expect(missing.statusCode).toBe(404);
    const bad = await rename(post, { url: 42, name: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  test('an admin without uploadProducts is refused', async () => {
    const { post } = await signedIn('admin', { manageUsers: true });
    const response = await rename(post, { url: `/media/products/${productId}/x.webp`, name: 'x' });
    expect(response.statusCode).toBe(403);
  });
});

test('safeImageName: the extension stripped, trimmed, a lower-case file name; null when empty', () => {
  expect(safeImageName('Blue Mug.JPG')).toBe('blue-mug');
  expect(safeImageName('  café crème  ')).toBe('cafe-creme');
  expect(safeImageName('archive.tar.gz')).toBe('archive-tar');
  expect(safeImageName('../../etc/passwd')).toBe('etc-passwd');
  expect(safeImageName('日本')).toBe('image');
  expect(safeImageName('.png')).toBeNull();
  expect(safeImageName('   ')).toBeNull();
  expect(safeImageName('a'.repeat(300))).toHaveLength(80);
});

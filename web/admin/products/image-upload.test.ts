import { describe, expect, test } from 'vitest';
import { productMessages } from '#common/product-rules.ts';
import {
  dedupeImageUrls,
  fromGridItems,
  gridItems,
  imageContentType,
  imageDisplayName,
  imageFileProblem,
  isIgnoredMarketplaceUrl,
  marketplaceChoices,
  moveItem,
  normaliseImageUrl,
  renameBase,
  uploadUrl,
} from './image-upload.ts';

const MB = 1024 * 1024;

describe('the file checks before an upload (spec 5)', () => {
  test('JPEG, PNG and WebP pass, by type or, when the browser gives none, by extension', () => {
    expect(imageContentType({ name: 'a.jpg', type: 'image/jpeg' })).toBe('image/jpeg');
    expect(imageContentType({ name: 'a.jpg', type: 'image/jpg' })).toBe('image/jpeg');
    expect(imageContentType({ name: 'a.PNG', type: '' })).toBe('image/png');
    expect(imageContentType({ name: 'a.webp', type: 'image/webp' })).toBe('image/webp');
    expect(imageContentType({ name: 'a.jpeg', type: '' })).toBe('image/jpeg');
  });

  test('any other type is refused with the spec sentence, whatever the name says', () => {
    for (const file of [
      { name: 'a.gif', type: 'image/gif', size: 10 },
      { name: 'a.svg', type: 'image/svg+xml', size: 10 },
      { name: 'a.png', type: 'text/html', size: 10 },
      { name: 'a', type: '', size: 10 },
      { name: 'a.heic', type: '', size: 10 },
    ]) {
      expect(imageFileProblem(file), file.name).toBe(productMessages.imageType);
    }
  });

  test('a file over 5 MB is refused with the spec sentence', () => {
    expect(imageFileProblem({ name: 'a.jpg', type: 'image/jpeg', size: 5 * MB })).toBeNull();
    expect(imageFileProblem({ name: 'a.jpg', type: 'image/jpeg', size: 5 * MB + 1 })).toBe(productMessages.imageSize);
  });

  test("the upload's URL names the product, or the draft's marketplace id, and the position", () => {
    expect(uploadUrl({ productId: 'a1b2c3d4e5f60718', aliId: '123', n: 2 })).toBe(
      '/api/admin/product-images?productId=a1b2c3d4e5f60718&aliId=123&n=2',
    );
    expect(uploadUrl({ productId: null, aliId: null, n: 0 })).toBe('/api/admin/product-images?n=0');
  });
});

describe('URLs (spec 4 and 5)', () => {
  test('normalised: no scheme, query or size suffix; host in lower case; a rendition is its image', () => {
    expect(normaliseImageUrl('https://AE01.alicdn.com/kf/Habc.jpg_640x640.jpg?x=1#y')).toBe(
      '//ae01.alicdn.com/kf/Habc.jpg',
    );
    expect(normaliseImageUrl('http://ae01.alicdn.com/kf/Habc.jpg_.webp')).toBe('//ae01.alicdn.com/kf/Habc.jpg');
    expect(normaliseImageUrl('//ae01.alicdn.com/kf/Habc.jpg_220x220q75.jpg')).toBe('//ae01.alicdn.com/kf/Habc.jpg');
    expect(normaliseImageUrl('/media/products/p/image-1-2-0123456789ab-400w.webp')).toBe(
      '/media/products/p/image-1-2-0123456789ab.webp',
    );
  });

  test('duplicates by normalised URL are removed, the first kept', () => {
    expect(
      dedupeImageUrls([
        'https://ae01.alicdn.com/kf/A.jpg',
        'http://ae01.alicdn.com/kf/A.jpg_640x640.jpg',
        '',
        'https://ae01.alicdn.com/kf/B.jpg',
        'https://ae01.alicdn.com/kf/A.jpg?v=2',
      ]),
    ).toEqual(['https://ae01.alicdn.com/kf/A.jpg', 'https://ae01.alicdn.com/kf/B.jpg']);
  });

  test('marketplace URLs naming no photo, a placeholder or a transparent pixel are ignored', () => {
    expect(isIgnoredMarketplaceUrl('https://ae01.alicdn.com/kf/no-photo.png')).toBe(true);
    expect(isIgnoredMarketplaceUrl('https://ae01.alicdn.com/kf/NoPhoto_200.png')).toBe(true);
    expect(isIgnoredMarketplaceUrl('https://ae01.alicdn.com/images/placeholder.jpg')).toBe(true);
    expect(isIgnoredMarketplaceUrl('https://ae01.alicdn.com/kf/transparent.gif')).toBe(true);
    expect(isIgnoredMarketplaceUrl('https://ae01.alicdn.com/kf/Hphotograph-lamp.jpg')).toBe(false);
  });

  test('the marketplace choices leave out ignored ones, duplicates, current images and moved ones', () => {
    const marketplace = [
      'https://ae01.alicdn.com/kf/A.jpg',
      'https://ae01.alicdn.com/kf/B.jpg',
      'https://ae01.alicdn.com/kf/B.jpg_640x640.jpg',
      'https://ae01.alicdn.com/kf/C.jpg',
      'https://ae01.alicdn.com/kf/placeholder.png',
    ];
    expect(
      marketplaceChoices(
        marketplace,
        ['http://ae01.alicdn.com/kf/A.jpg'],
        new Set([normaliseImageUrl(marketplace[3] ?? '')]),
      ),
    ).toEqual(['https://ae01.alicdn.com/kf/B.jpg']);
  });
});

describe('the grid order', () => {
  test('moveItem moves one item, clamped to the list', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 9)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem([], 0, 1)).toEqual([]);
  });

  test('the SKU Position block sits before the image at its position, at the end when unset', () => {
    expect(gridItems(['a', 'b'], 1, true)).toEqual([
      { kind: 'image', url: 'a' },
      { kind: 'sku' },
      { kind: 'image', url: 'b' },
    ]);
    expect(gridItems(['a', 'b'], null, true).at(-1)).toEqual({ kind: 'sku' });
    expect(gridItems(['a', 'b'], 9, true).at(-1)).toEqual({ kind: 'sku' });
    expect(gridItems(['a', 'b'], 1, false)).toHaveLength(2);
  });

  test('moving cells gives back the images and the SKU position', () => {
    const items = gridItems(['a', 'b', 'c'], 0, true);
    // The block itself moved.
    expect(fromGridItems(moveItem(items, 0, 2))).toEqual({ images: ['a', 'b', 'c'], skuImagePosition: 2 });
    // Moving an image across the block shifts the block's position.
    expect(fromGridItems(moveItem(items, 3, 0))).toEqual({ images: ['c', 'a', 'b'], skuImagePosition: 1 });
    // Deleting an image before the block keeps it before the same image.
    const withoutA = gridItems(['a', 'b', 'c'], 2, true).filter((item) => item.kind !== 'image' || item.url !== 'a');
    expect(fromGridItems(withoutA)).toEqual({ images: ['b', 'c'], skuImagePosition: 1 });
    expect(fromGridItems(gridItems(['a'], 0, false))).toEqual({ images: ['a'], skuImagePosition: null });
  });
});

describe('rename (spec 5)', () => {
  test('the extension is stripped and the name trimmed; nothing left means refused', () => {
    expect(renameBase('  Blue mug.jpg ')).toBe('Blue mug');
    expect(renameBase('archive.tar.gz')).toBe('archive.tar');
    expect(renameBase('.png')).toBe('');
    expect(renameBase('   ')).toBe('');
  });

  test("an image's shown name leaves out the folder, hash, width and extension", () => {
    expect(imageDisplayName('/media/products/p/blue-mug-0123456789ab.webp')).toBe('blue-mug');
    expect(imageDisplayName('/media/products/p/image-2-1732600000000-0123456789ab-400w.webp')).toBe(
      'image-2-1732600000000',
    );
    expect(imageDisplayName('https://ae01.alicdn.com/kf/Habc.jpg?x=1')).toBe('Habc');
  });
});

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { MAX_PRODUCT_IMAGES } from '#common/product-rules.ts';
import { ImageManager, type ImageManagerProps } from './image-manager.tsx';

const own = (name: string) => `/media/products/a1b2c3d4e5f60718/${name}-0123456789ab.webp`;

function render(props: Partial<ImageManagerProps> = {}) {
  return renderToStaticMarkup(
    createElement(ImageManager, {
      images: [own('front'), own('side')],
      onChange: () => {},
      productId: 'a1b2c3d4e5f60718',
      aliId: '1005006123456789',
      marketplaceImages: [
        'https://ae01.alicdn.com/kf/A.jpg',
        'https://ae01.alicdn.com/kf/A.jpg_640x640.jpg',
        'https://ae01.alicdn.com/kf/placeholder.png',
      ],
      skuImagePosition: 1,
      onSkuImagePositionChange: () => {},
      showSkuPosition: true,
      ...props,
    }),
  );
}

test('the header counts the images against the maximum; the upload area, the marketplace list and the grid are there', () => {
  const html = render();
  expect(html).toContain(`Product Images (2/${MAX_PRODUCT_IMAGES})`);
  expect(html).toContain('Upload Images');
  expect(html).toContain('type="file"');
  // One marketplace image: the size variant is a duplicate, the placeholder is ignored.
  expect(html).toContain('Marketplace Images (1)');
  expect(html).toContain('Add marketplace image 1');
  expect(html).not.toContain('Add marketplace image 2');
  // The grid: image 1, the SKU Position block, image 2, each movable from the keyboard.
  const order = ['Move Image 1 (front) earlier', 'Move SKU Position earlier', 'Move Image 2 (side) earlier'];
  const positions = order.map((text) => html.indexOf(text));
  expect(positions.every((position) => position > 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  expect(html).toContain('Rename Image 2 (side)');
  expect(html).toContain('Delete Image 1 (front)');
  // Thumbnails load the 400 px rendition.
  expect(html).toContain(own('front').replace('.webp', '-400w.webp'));
});

test('without the SKU block, without a marketplace id', () => {
  const html = render({ showSkuPosition: false, aliId: null, marketplaceImages: [], images: [] });
  expect(html).toContain(`Product Images (0/${MAX_PRODUCT_IMAGES})`);
  expect(html).not.toContain('SKU Position');
  expect(html).toContain('No images yet.');
  expect(html).toContain('Enter the marketplace product ID to see its images.');
});

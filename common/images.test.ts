import { expect, test } from 'vitest';
import { imageSrcSet, renditionUrl } from './images.ts';

test('renditions of stored images sit beside them with their width', () => {
  expect(renditionUrl('/media/products/p/1-ab12cd34.webp', 400)).toBe('/media/products/p/1-ab12cd34-400w.webp');
  expect(renditionUrl('/media/products/p/1-ab12cd34.webp', 1200)).toBe('/media/products/p/1-ab12cd34.webp');
  expect(imageSrcSet('/media/products/p/1.webp')).toBe(
    '/media/products/p/1-400w.webp 400w, /media/products/p/1-800w.webp 800w, /media/products/p/1.webp 1200w',
  );
});

test('images hosted elsewhere are used as they are', () => {
  expect(renditionUrl('https://ae01.alicdn.com/kf/x.jpg', 400)).toBe('https://ae01.alicdn.com/kf/x.jpg');
  expect(imageSrcSet('https://ae01.alicdn.com/kf/x.jpg')).toBeUndefined();
});

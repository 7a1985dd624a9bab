import type { SeedCategory } from './types.ts';

/** The shop's categories, in the order they are shown (New Releases first). */
export const seedCategories: SeedCategory[] = [
  { name: 'New Releases', slug: 'new-releases' },
  { name: 'Fountains', slug: 'fountains' },
  { name: 'Wellness', slug: 'wellness' },
  { name: 'Decor', slug: 'decor' },
  { name: 'Lighting', slug: 'lighting' },
  { name: 'Aromatherapy', slug: 'aromatherapy' },
  { name: 'Gifts', slug: 'gifts' },
];

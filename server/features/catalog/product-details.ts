import { getTableColumns, sql } from 'drizzle-orm';
import type { SkuVariant } from '#common/contracts/catalog.ts';
import { products } from './catalog.tables.ts';

/** A product's own columns: all but the search columns (the database's own, never sent). */
const { searchText: _searchText, searchVector: _searchVector, ...ownColumns } = getTableColumns(products);
export const productColumns = ownColumns;

/**
 * A product row's images, variants and categories, each gathered by the row's own subquery as
 * JSON (in their positions' order), for a select from `products`: one statement reads a page of
 * products whole. It was four, and at a million products a page's answer cost the process more
 * in statements than the database took to run them. The subqueries are computed for every row the
 * select produces, so a page at an offset reads its ids first and these for those alone.
 */
export const productDetailColumns = {
  imageUrls: sql<string[]>`coalesce((SELECT json_agg(i.url ORDER BY i.position, i.id)
    FROM product_images i WHERE i.product_id = products.id), '[]'::json)`,
  variants: sql<SkuVariant[]>`coalesce((SELECT json_agg(json_build_object(
      'skuId', v.sku_id, 'skuAttr', v.sku_attr, 'name', v.name, 'label', v.label, 'price', v.price,
      'salePrice', v.sale_price, 'stock', v.stock, 'image', v.image, 'images', v.images,
      'isActive', v.is_active) ORDER BY v.position, v.id)
    FROM sku_variants v WHERE v.product_id = products.id), '[]'::json)`,
  productCategories: sql<{ id: string; name: string }[]>`coalesce((SELECT json_agg(json_build_object(
      'id', c.id, 'name', c.name) ORDER BY pc.position)
    FROM product_categories pc JOIN categories c ON c.id = pc.category_id
    WHERE pc.product_id = products.id), '[]'::json)`,
};

export type ProductWithDetails = Omit<typeof products.$inferSelect, 'searchText' | 'searchVector'> & {
  imageUrls: string[];
  variants: SkuVariant[];
  productCategories: { id: string; name: string }[];
};

import type { getMarketplaceProductInfo, getMarketplaceProductSkus } from '#common/contracts/admin/marketplace.ts';
import { api } from '#web/common/browser-api.ts';
import type { FetchedVariant, ProductInfo } from './product-form.ts';

/** Spec 7 (Marketplace): GET /api/aliexpress/product-info/{id}, as the modals call it. */
export function fetchProductInfo(id: string): Promise<ProductInfo> {
  return api.call<typeof getMarketplaceProductInfo>(
    { method: 'GET', path: '/api/aliexpress/product-info/:id' },
    { params: { id } },
  );
}

/** Spec 7 (Marketplace): GET /api/aliexpress/product-skus/{id}: the variants, prices in dollars. */
export async function fetchProductSkus(id: string): Promise<FetchedVariant[]> {
  const answer = await api.call<typeof getMarketplaceProductSkus>(
    { method: 'GET', path: '/api/aliexpress/product-skus/:id' },
    { params: { id } },
  );
  return answer.variants;
}

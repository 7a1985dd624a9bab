import type * as z from 'zod/mini';
import { api } from '#web/common/browser-api.ts';
import type { FetchedVariant, ProductInfo } from './product-form.ts';

/** Spec 7 (Marketplace): GET /api/aliexpress/product-info/{id} and /product-skus/{id}, as the modals call them. */
type ProductInfoEndpoint = {
  method: 'GET';
  path: '/api/aliexpress/product-info/:id';
  params: z.ZodMiniType<{ id: string }, { id: string }>;
  response: z.ZodMiniType<ProductInfo, ProductInfo>;
};
type ProductSkusEndpoint = {
  method: 'GET';
  path: '/api/aliexpress/product-skus/:id';
  params: z.ZodMiniType<{ id: string }, { id: string }>;
  response: z.ZodMiniType<{ variants: FetchedVariant[] }, { variants: FetchedVariant[] }>;
};

export function fetchProductInfo(id: string): Promise<ProductInfo> {
  return api.call<ProductInfoEndpoint>({ method: 'GET', path: '/api/aliexpress/product-info/:id' }, { params: { id } });
}

export async function fetchProductSkus(id: string): Promise<FetchedVariant[]> {
  const answer = await api.call<ProductSkusEndpoint>(
    { method: 'GET', path: '/api/aliexpress/product-skus/:id' },
    { params: { id } },
  );
  return answer.variants;
}

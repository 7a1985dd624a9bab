import type { FetchedVariant, MarketplaceProductInfo } from '#common/contracts/admin/marketplace.ts';
import type {
  MarketplaceError,
  MarketplaceProduct,
  MarketplaceVariant,
} from '#server/adapters/marketplace/marketplace.ts';
import {
  isPlaceholderImageUrl,
  MAX_PRODUCT_IMAGES as MARKETPLACE_IMAGES,
} from '#server/adapters/marketplace/marketplace.ts';
import { AppError } from '#server/http/errors.ts';
import type { RefusalReason } from '#server/http/remote-fetch.ts';

/*
 * The marketplace's answers in the back office's terms (spec 3, Marketplace product info
 * response), and its failures as HTTP answers.
 */

/** A URL compared for duplicates: scheme and host lower-cased, no query or fragment, no trailing slash. */
export function normalisedImageUrl(url: string): string {
  const parsed = URL.parse(url, 'https://relative.invalid');
  if (!parsed) return url.trim();
  const path = parsed.pathname.replace(/\/+$/, '');
  return parsed.origin === 'https://relative.invalid'
    ? path
    : `${parsed.protocol}//${parsed.host}${path}`.toLowerCase();
}

/** Spec 5 and 9: the first 10 product pictures, placeholders dropped, duplicates (by normalised URL) removed. */
export function usableImageUrls(urls: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const url of urls) {
    if (isPlaceholderImageUrl(url)) continue;
    const key = normalisedImageUrl(url);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(url);
    if (kept.length === MARKETPLACE_IMAGES) break;
  }
  return kept;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The seller's HTML description as plain text: paragraphs separated by blank lines, no markup. */
export function descriptionText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return entities[name.toLowerCase()] ?? whole;
    })
    .replace(/\p{Cc}/gu, (c) => (c === '\n' ? c : ' '))
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .replace(/[ \t\u00a0]*\n[ \t\u00a0]*/g, '\n')
        .replace(/[ \t\u00a0]+/g, ' ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n\n');
}

const dollars = (cents: number) => Math.round(cents) / 100;

/** Spec 3: a fetched variant, price and sale price in dollars. */
export function fetchedVariant(variant: MarketplaceVariant): FetchedVariant {
  return {
    skuId: variant.skuId,
    skuAttr: variant.skuAttr,
    name: variant.name,
    label: variant.label,
    price: dollars(variant.price),
    salePrice: variant.salePrice === null ? null : dollars(variant.salePrice),
    stock: variant.stock,
    image: variant.image,
  };
}

export function productInfo(product: MarketplaceProduct): MarketplaceProductInfo {
  return {
    productId: product.productId,
    title: product.title,
    imageUrls: usableImageUrls(product.imageUrls),
    variants: product.variants.map(fetchedVariant),
    variantLabel: product.variantLabel,
    description: descriptionText(product.descriptionHtml),
    aliExpressPrice: product.cost,
    stock: product.stock,
  };
}

/**
 * A marketplace failure as the back office sees it. The messages are the shop's own: the
 * adapter's (which may quote the marketplace) go to the log only.
 */
export function marketplaceFailure(error: MarketplaceError, productId: string): AppError {
  switch (error.code) {
    case 'not_found':
      return new AppError(404, 'not_found', `The marketplace has no product ${productId}`);
    case 'not_available':
      return new AppError(422, 'not_available', `Marketplace product ${productId} is not sold to the shop's country`);
    case 'invalid_request':
      return new AppError(400, 'invalid_input', `The marketplace did not accept product id ${productId}`);
    case 'rate_limited': {
      const failure = new AppError(429, 'rate_limited', 'The marketplace is busy: try again in a few seconds');
      failure.retryAfter = Math.max(1, Math.ceil((error.retryAfterMs ?? 2000) / 1000));
      return failure;
    }
    case 'auth':
      return new AppError(
        502,
        'marketplace_auth',
        "The marketplace refused the shop's credentials: check the AliExpress app key, secret and access token",
      );
    case 'rejected':
      return new AppError(502, 'marketplace_rejected', 'The marketplace refused the request');
    default:
      return new AppError(502, 'marketplace_unavailable', 'The marketplace could not be reached or answered unclearly');
  }
}

/** remote-fetch's refusals as HTTP answers: the caller's URL (400), the picture (413, 422), the image host (502, 504). */
const refusalStatus: Record<RefusalReason, number> = {
  invalid_url: 400,
  not_https: 400,
  host_not_allowed: 400,
  private_address: 400,
  not_an_image: 422,
  too_large: 413,
  too_slow: 504,
  upstream_status: 502,
  unreachable: 502,
  too_many_redirects: 502,
};

export function imageRefusal(reason: RefusalReason, message: string): AppError {
  return new AppError(refusalStatus[reason], reason, message);
}

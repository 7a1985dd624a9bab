import { useState } from 'react';
import { Link } from 'react-router';
import { bestSellerRank, featureTags, needsVariantChoice } from '#common/catalog-rules.ts';
import { ADDED_TO_CART_FEEDBACK_MS } from '#common/constants.ts';
import { effectivePrice, formatCents, salePercent } from '#common/money.ts';
import { addProductToCart, defaultVariant } from './add-product-to-cart.ts';
import type { CardProduct } from './card-product.ts';
import { ProductImage } from './product-image.tsx';
import { Stars } from './stars.tsx';

/** A product in a listing, exactly as the spec lists it. `bestSellerScore` adds the badge. */
export function ProductCard({
  product,
  bestSellerScore,
  priority = false,
}: {
  product: CardProduct;
  bestSellerScore?: number | undefined;
  priority?: boolean;
}) {
  const price = effectivePrice(product.price, product.salePrice);
  const percent = salePercent(product.price, product.salePrice);
  const { tags, more } = featureTags(product.features, product.featureCount);
  const href = `/product/${product.slug}`;
  return (
    <article className="group flex flex-col overflow-hidden rounded-2xl border border-sage-100 bg-white shadow-sm transition hover:shadow-md">
      <Link
        to={href}
        className="relative block aspect-square overflow-hidden bg-sage-50"
        tabIndex={-1}
        aria-hidden="true"
      >
        <ProductImage
          src={product.images[0]}
          alt=""
          sizes="(min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw"
          priority={priority}
          className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.03]"
        />
        <span className="absolute top-3 left-3 flex flex-col items-start gap-1.5">
          {percent > 0 ? (
            <span className="rounded-full bg-red-700 px-2.5 py-1 text-xs font-bold text-white">-{percent}%</span>
          ) : null}
          {bestSellerScore ? (
            <span className="rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900">
              Bestseller #{bestSellerRank(bestSellerScore)}
            </span>
          ) : null}
        </span>
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-medium text-sage-900">
          <Link to={href} className="hover:underline">
            {product.title}
          </Link>
        </h3>
        {product.rating.count > 0 ? (
          <Link to={`${href}/reviews`} className="flex items-center gap-1.5 text-sm text-stone-600 hover:underline">
            <Stars rating={product.rating.average} />
            <span>{product.rating.average.toFixed(1)}</span>
            <span>({product.rating.count})</span>
          </Link>
        ) : (
          <p className="text-sm text-stone-500">No reviews yet</p>
        )}
        <p className="line-clamp-2 text-sm text-stone-600">{product.summary}</p>
        <ul className="flex flex-wrap gap-1.5" aria-label="Features">
          {tags.map((tag) => (
            <li key={tag} className="rounded-full bg-sage-50 px-2 py-0.5 text-xs text-sage-800">
              {tag}
            </li>
          ))}
          {more > 0 ? <li className="rounded-full bg-sage-50 px-2 py-0.5 text-xs text-sage-800">+{more}</li> : null}
        </ul>
        <p className="mt-auto flex items-baseline gap-2 pt-2">
          <span className="text-lg font-semibold text-sage-900">{formatCents(price)}</span>
          {percent > 0 ? <s className="text-sm text-stone-600">{formatCents(product.price)}</s> : null}
        </p>
        <CardButton product={product} href={href} />
      </div>
    </article>
  );
}

function CardButton({ product, href }: { product: CardProduct; href: string }) {
  const [added, setAdded] = useState(false);
  const button = 'mt-2 block w-full rounded-full px-4 py-2 text-center text-sm font-medium';
  if (needsVariantChoice(product.skuVariants)) {
    return (
      <Link to={href} className={`${button} border border-sage-300 text-sage-800 hover:bg-sage-50`}>
        Select Variant
      </Link>
    );
  }
  const variant = defaultVariant(product);
  const soldOut = variant ? variant.stock <= 0 : product.stock <= 0;
  return (
    <button
      type="button"
      disabled={soldOut}
      onClick={() => {
        addProductToCart(product, variant);
        setAdded(true);
        setTimeout(() => setAdded(false), ADDED_TO_CART_FEEDBACK_MS);
      }}
      className={`${button} bg-sage-700 text-white hover:bg-sage-800 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-600`}
    >
      {soldOut ? 'Out of Stock' : added ? 'Added to Cart' : 'Add to Cart'}
    </button>
  );
}

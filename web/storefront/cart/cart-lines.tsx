import { useId, useState } from 'react';
import { Link } from 'react-router';
import { formatCents } from '#common/money.ts';
import { ProductImage } from '#web/storefront/catalog/product-image.tsx';
import { cartLineKey, MAX_QUANTITY, type PreviewLine, parseQuantityInput } from './cart-items.ts';
import type { CartItem } from './cart-storage.ts';
import { removeItem, setQuantity } from './cart-sync.ts';

/** The name of a line for its controls: the title, and the variant when there is one. */
function lineName(item: CartItem): string {
  return item.variantName ? `${item.title} (${item.variantName})` : item.title;
}

const productHref = (item: CartItem) => `/product/${encodeURIComponent(item.id)}`;

/**
 * The cart's lines: a table from the md breakpoint, a list of cards below it. Both are in the
 * page; the one not shown is display:none, so assistive technology meets exactly one.
 */
export function CartLines({ lines }: { lines: PreviewLine[] }) {
  return (
    <>
      <table className="hidden w-full border-collapse text-left md:table">
        <caption className="sr-only">Items in your cart</caption>
        <thead>
          <tr className="border-b border-sage-100 text-sm text-stone-600">
            <th scope="col" className="py-3 pr-4 font-medium">
              Product
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Price
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Quantity
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Total
            </th>
            <th scope="col" className="py-3 pl-4">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.key} className="border-b border-sage-100 align-middle" data-testid="cart-line">
              <th scope="row" className="py-4 pr-4 text-left font-normal">
                <LineProduct item={line.item} appliedCode={line.appliedCode} />
              </th>
              <td className="px-4 py-4">
                <UnitPrice price={line} />
              </td>
              <td className="px-4 py-4">
                <QuantityControl item={line.item} />
              </td>
              <td className="px-4 py-4 text-right font-semibold text-sage-900" data-testid="line-total">
                {formatCents(line.lineTotal)}
              </td>
              <td className="py-4 pl-4 text-right">
                <RemoveButton item={line.item} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <ul className="space-y-4 md:hidden" aria-label="Items in your cart">
        {lines.map((line) => (
          <li
            key={line.key}
            className="rounded-2xl border border-sage-100 bg-white p-4 shadow-sm"
            data-testid="cart-card"
          >
            <LineProduct item={line.item} appliedCode={line.appliedCode} />
            <dl className="mt-4 grid grid-cols-2 gap-y-2 text-sm">
              <dt className="text-stone-600">Price</dt>
              <dd className="text-right">
                <UnitPrice price={line} />
              </dd>
              <dt className="text-stone-600">Total</dt>
              <dd className="text-right font-semibold text-sage-900" data-testid="line-total">
                {formatCents(line.lineTotal)}
              </dd>
            </dl>
            <div className="mt-4 flex items-center justify-between gap-3">
              <QuantityControl item={line.item} />
              <RemoveButton item={line.item} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

function LineProduct({ item, appliedCode }: { item: CartItem; appliedCode: string | null }) {
  return (
    <div className="flex items-center gap-4">
      <Link
        to={productHref(item)}
        tabIndex={-1}
        aria-hidden="true"
        className="block h-20 w-20 shrink-0 overflow-hidden rounded-xl bg-sage-50"
      >
        <ProductImage
          src={item.image || undefined}
          alt=""
          sizes="80px"
          width={80}
          height={80}
          className="h-full w-full object-cover"
        />
      </Link>
      <div className="min-w-0">
        <Link to={productHref(item)} className="font-medium text-sage-900 hover:underline">
          {item.title}
        </Link>
        {item.variantName ? (
          <p className="mt-1 text-sm text-stone-600">
            {item.variantLabel ? `${item.variantLabel}: ` : ''}
            {item.variantName}
          </p>
        ) : null}
        {appliedCode ? (
          <p className="mt-1 text-xs font-semibold tracking-wide text-green-800 uppercase">{appliedCode} applied</p>
        ) : null}
      </div>
    </div>
  );
}

/** The unit price, with the price before the code struck through when a code lowered it. */
function UnitPrice({ price }: { price: PreviewLine }) {
  const lowered = price.unitPrice < price.originalUnitPrice;
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-x-2" data-testid="unit-price">
      <span className={lowered ? 'font-semibold text-green-800' : 'text-stone-800'}>
        {formatCents(price.unitPrice)}
      </span>
      {lowered ? (
        <s className="text-sm text-stone-600">
          <span className="sr-only">was </span>
          {formatCents(price.originalUnitPrice)}
        </s>
      ) : null}
    </span>
  );
}

/**
 * − and + buttons and a number field. The field accepts whole numbers of 0 or more and the
 * update is floored at 1 (spec 4); while it holds something else (empty, mid-typing) the line
 * keeps its quantity, and leaving the field shows the quantity again.
 */
function QuantityControl({ item }: { item: CartItem }) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const key = cartLineKey(item);
  const name = lineName(item);
  const atMin = item.quantity <= 1;
  const atMax = item.quantity >= MAX_QUANTITY;
  return (
    <div className="inline-flex items-center gap-1 rounded-full border border-sage-200 bg-white p-0.5">
      <StepButton
        label={`Decrease quantity of ${name}`}
        symbol="−"
        blocked={atMin}
        onStep={() => {
          setDraft(null);
          setQuantity(key, item.quantity - 1);
        }}
      />
      <label htmlFor={id} className="sr-only">
        Quantity of {name}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_QUANTITY}
        step={1}
        value={draft ?? String(item.quantity)}
        onChange={(event) => {
          const text = event.target.value;
          const quantity = parseQuantityInput(text);
          if (quantity === null) {
            setDraft(text);
            return;
          }
          setDraft(null);
          // The field shows the quantity kept (0 floored to 1) even when the state does not change
          // and the renderer leaves the field alone (the browser build's Preact does).
          if (text !== String(quantity)) event.target.value = String(quantity);
          if (quantity !== item.quantity) setQuantity(key, quantity);
        }}
        onBlur={() => setDraft(null)}
        className="w-12 [appearance:textfield] rounded-md border-0 bg-transparent text-center text-sm focus:ring-2 focus:ring-sage-300 focus:outline-none [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
      />
      <StepButton
        label={`Increase quantity of ${name}`}
        symbol="+"
        blocked={atMax}
        onStep={() => {
          setDraft(null);
          setQuantity(key, item.quantity + 1);
        }}
      />
    </div>
  );
}

/** A − or + of the quantity control; at the floor or ceiling it stays focusable but does nothing. */
function StepButton({
  label,
  symbol,
  blocked,
  onStep,
}: {
  label: string;
  symbol: string;
  blocked: boolean;
  onStep: () => void;
}) {
  return (
    <button
      type="button"
      className="flex h-9 w-9 items-center justify-center rounded-full text-lg text-sage-800 hover:bg-sage-100 aria-disabled:cursor-not-allowed aria-disabled:text-stone-500 aria-disabled:hover:bg-transparent"
      aria-label={label}
      // aria-disabled rather than disabled: the button keeps the focus at the floor.
      aria-disabled={blocked}
      onClick={() => {
        if (!blocked) onStep();
      }}
    >
      <span aria-hidden="true">{symbol}</span>
    </button>
  );
}

function RemoveButton({ item }: { item: CartItem }) {
  return (
    <button
      type="button"
      onClick={() => removeItem(cartLineKey(item))}
      aria-label={`Remove ${lineName(item)}`}
      className="rounded-full px-3 py-1.5 text-sm text-red-800 underline-offset-2 hover:bg-red-50 hover:underline"
    >
      Remove
    </button>
  );
}

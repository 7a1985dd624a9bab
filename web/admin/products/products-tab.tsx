import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type {
  AdminProduct,
  adminProductSortFields,
  deleteAdminProduct,
  listAdminCategories,
  listAdminProducts,
} from '#common/contracts/admin/products.ts';
import { PLACEHOLDER_IMAGE } from '#common/images.ts';
import { formatCents } from '#common/money.ts';
import { NAVIGATION_CATEGORIES, productMessages, tableCategories, tableDescription } from '#common/product-rules.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { useConfirm } from '../ui/confirm-dialog.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { formatDate } from '../ui/format.ts';
import {
  AdminTable,
  ListFooter,
  listStatus,
  PlainHeaders,
  SearchField,
  SelectField,
  SortControls,
  SortHeader,
  tableStyles,
} from '../ui/list-controls.tsx';
import { nextSort, type Sort } from '../ui/list-state.ts';
import { primaryButton, smallButton } from '../ui/styles.ts';
import { useAdminList } from '../ui/use-admin-list.ts';
import { ProductDialog } from './product-dialog.tsx';

type SortField = (typeof adminProductSortFields)[number];
const sortOptions = [
  { value: 'createdAt', label: 'Date added' },
  { value: 'title', label: 'Title' },
  { value: 'price', label: 'Price' },
  { value: 'stock', label: 'Stock' },
  { value: 'sales', label: 'Sales' },
] as const satisfies readonly { value: SortField; label: string }[];

const paths = {
  list: '/api/admin/products' as (typeof listAdminProducts)['path'],
  categories: '/api/admin/categories' as (typeof listAdminCategories)['path'],
  remove: '/api/admin/products/:id' as (typeof deleteAdminProduct)['path'],
};
const idOf = (product: AdminProduct) => product.id;

const statusStyles: Record<AdminProduct['status'], string> = {
  active: 'bg-sage-100 text-sage-900',
  inactive: 'bg-stone-100 text-stone-800',
  draft: 'bg-amber-100 text-amber-900',
  archived: 'bg-stone-200 text-stone-800',
};
const statusLabels: Record<AdminProduct['status'], string> = {
  active: 'Active',
  inactive: 'Inactive',
  draft: 'Draft',
  archived: 'Archived',
};

/**
 * The category filter's and the modals' choices: the shop's categories, or the built-in
 * navigation categories when they cannot be read (spec 7).
 */
export function useCategoryNames(): string[] {
  const categories = useQuery({
    queryKey: ['admin', 'products', 'categories'],
    queryFn: () => api.call<typeof listAdminCategories>({ method: 'GET', path: paths.categories }),
  });
  if (categories.error) return [...NAVIGATION_CATEGORIES];
  return categories.data?.categories.map((category) => category.name) ?? [];
}

/** A product's picture in the table, the placeholder when it has none or it fails to load (spec 2). */
function ProductThumb({ src }: { src: string | undefined }) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = !src || failed === src ? PLACEHOLDER_IMAGE : src;
  return (
    <img
      src={url}
      alt=""
      width={48}
      height={48}
      loading="lazy"
      onError={() => src && setFailed(src)}
      className="h-12 w-12 rounded-lg border border-sage-100 bg-sage-50 object-cover"
    />
  );
}

type Editing = { id: string | null } | null;

/**
 * Products tab (permission uploadProducts; spec 2, 4, 7, 8 and 9): search, the category filter,
 * sort, the table with every status (archived too), Load More and infinite scroll, the Add and
 * Edit Product modals, and delete after a confirm (a product with orders is archived instead).
 */
export default function ProductsTab() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [sort, setSort] = useState<Sort<SortField>>({ sortBy: 'createdAt', sortOrder: 'desc' });
  const [editing, setEditing] = useState<Editing>(null);
  const { flash, show } = useFlashMessage();
  const { confirm, dialog } = useConfirm();
  const queryClient = useQueryClient();
  const categoryNames = useCategoryNames();
  const list = useAdminList<AdminProduct>({
    collection: 'products',
    path: paths.list,
    itemsKey: 'products',
    params: { search, categoryFilter: category || undefined, ...sort },
    idOf,
  });
  const onSort = useCallback((field: SortField) => setSort((current) => nextSort(current, field)), []);

  const remove = useMutation({
    mutationFn: (product: AdminProduct) =>
      api.call<typeof deleteAdminProduct>({ method: 'DELETE', path: paths.remove }, { params: { id: product.id } }),
    onSuccess: (answer, product) => {
      show(
        'success',
        answer.archived
          ? `“${product.title}” has orders, so it was archived instead of deleted: it is hidden from the shop and its orders keep it.`
          : answer.message,
      );
      void queryClient.invalidateQueries({ queryKey: ['admin', 'products'] });
    },
    onError: (error) => show('error', errorMessage(error, 'Failed to delete product')),
  });
  const askDelete = async (product: AdminProduct) => {
    const yes = await confirm({
      title: 'Delete product',
      message: `“${product.title}”: ${productMessages.deleteConfirm}`,
      confirmLabel: 'Delete product',
    });
    if (yes) remove.mutate(product);
  };
  const saved = (message: string) => {
    setEditing(null);
    show('success', message);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'products'] });
  };

  const categoryOptions = [
    { value: '', label: 'All categories' },
    ...categoryNames.map((name) => ({ value: name, label: name })),
  ];
  if (category && !categoryNames.includes(category)) categoryOptions.push({ value: category, label: category });

  return (
    <section aria-labelledby="products-heading">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="products-heading" className="font-serif text-2xl text-sage-900">
          Products
        </h2>
        <button type="button" className={primaryButton} onClick={() => setEditing({ id: null })}>
          Add Product
        </button>
      </div>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <SearchField label="Search products by title or AliExpress ID" value={search} onSearch={setSearch} />
        <SelectField label="Category" value={category} options={categoryOptions} onChange={setCategory} />
        <SortControls sort={sort} options={sortOptions} onChange={setSort} />
      </div>
      <div className="mt-4">
        <FlashMessage flash={flash} />
      </div>
      <AdminTable
        caption="Products"
        columns={9}
        status={listStatus(list, {
          loading: 'Loading products…',
          failed: 'Failed to load products',
          empty: 'No products found.',
        })}
        headers={
          <>
            <PlainHeaders names={['Image']} />
            <SortHeader field="title" sort={sort} onSort={onSort}>
              Product
            </SortHeader>
            <SortHeader field="price" sort={sort} onSort={onSort}>
              Price
            </SortHeader>
            <SortHeader field="stock" sort={sort} onSort={onSort}>
              Stock
            </SortHeader>
            <PlainHeaders names={['Status', 'Categories']} />
            <SortHeader field="sales" sort={sort} onSort={onSort}>
              Sales
            </SortHeader>
            <SortHeader field="createdAt" sort={sort} onSort={onSort}>
              Added
            </SortHeader>
            <PlainHeaders names={['Actions']} />
          </>
        }
      >
        {list.rows.map((product) => {
          const tags = tableCategories(product.categories);
          return (
            <tr key={product.id}>
              <td className={tableStyles.cell}>
                <ProductThumb src={product.images[0]} />
              </td>
              <td className={`${tableStyles.cell} min-w-64 max-w-md`}>
                <p className="font-medium text-stone-900">{product.title}</p>
                <p className="text-stone-700">{tableDescription(product.description)}</p>
                {product.sku ? <p className="mt-1 font-mono text-xs text-stone-600">SKU {product.sku}</p> : null}
              </td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>
                {product.salePrice !== null && product.salePrice < product.price ? (
                  <>
                    <p className="font-medium text-red-800">{formatCents(product.salePrice)}</p>
                    <p className="text-xs text-stone-600">
                      <span className="sr-only">was </span>
                      <s>{formatCents(product.price)}</s>
                    </p>
                  </>
                ) : (
                  <p>{formatCents(product.price)}</p>
                )}
              </td>
              <td className={tableStyles.cell}>{product.stock}</td>
              <td className={tableStyles.cell}>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusStyles[product.status]}`}>
                  {statusLabels[product.status]}
                </span>
              </td>
              <td className={tableStyles.cell}>
                <ul className="flex flex-wrap gap-1" aria-label="Categories">
                  {tags.shown.map((name) => (
                    <li key={name} className="rounded-full bg-sage-50 px-2 py-0.5 text-xs text-sage-900">
                      {name}
                    </li>
                  ))}
                  {tags.more > 0 ? <li className="px-1 text-xs text-stone-600">+{tags.more} more</li> : null}
                </ul>
              </td>
              <td className={tableStyles.cell}>{product.sales}</td>
              <td className={`${tableStyles.cell} whitespace-nowrap`}>{formatDate(product.createdAt)}</td>
              <td className={tableStyles.cell}>
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={smallButton}
                    onClick={() => setEditing({ id: product.id })}
                    aria-label={`Edit ${product.title}`}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    disabled={remove.isPending}
                    onClick={() => void askDelete(product)}
                    aria-label={`Delete ${product.title}`}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          );
        })}
      </AdminTable>
      <ListFooter list={list} />
      <ProductDialog
        key={editing ? (editing.id ?? 'new') : 'closed'}
        productId={editing?.id ?? null}
        open={editing !== null}
        categories={categoryNames}
        onSaved={saved}
        onClose={() => setEditing(null)}
      />
      {dialog}
    </section>
  );
}

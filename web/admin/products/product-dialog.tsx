import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { aiExtractForMarketplaceProduct, aiExtractForProduct } from '#common/contracts/admin/ai-content.ts';
import type {
  AdminProduct,
  createAdminProduct,
  getAdminProduct,
  ProductInput,
  updateAdminProduct,
} from '#common/contracts/admin/products.ts';
import { formatCents } from '#common/money.ts';
import { extractMarketplaceId, productMessages } from '#common/product-rules.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { useConfirm } from '../ui/confirm-dialog.tsx';
import { InputField } from '../ui/fields.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { SelectField } from '../ui/list-controls.tsx';
import { Modal } from '../ui/modal.tsx';
import { input, label as labelStyle, primaryButton, secondaryButton } from '../ui/styles.ts';
import { aiContentRequest, checkAiContentForm, initialAiContentForm, readAiContent } from './ai-content-form.ts';
import { AiContentGenerator } from './ai-content-generator.tsx';
import { ImageManager } from './image-manager.tsx';
import { uploadImageFile } from './image-upload.ts';
import { fetchProductInfo, fetchProductSkus } from './marketplace-calls.ts';
import { CategoryPicker, DynamicList } from './product-fields.tsx';
import {
  emptyProductForm,
  needsPriceConfirm,
  type ProductFormErrors,
  type ProductFormState,
  type ProductStatus,
  productFormOf,
  readProductForm,
  singleSku,
  variantOfFetched,
  withAiContent,
  withFetchedSkus,
  withProductInfo,
} from './product-form.ts';
import { SkuVariantsSection, type UploadVariantImage } from './sku-variants.tsx';

const paths = {
  one: '/api/admin/products/:id' as (typeof getAdminProduct)['path'],
  create: '/api/admin/products' as (typeof createAdminProduct)['path'],
  update: '/api/admin/products/:id' as (typeof updateAdminProduct)['path'],
};
const statusOptions: { value: ProductStatus; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'draft', label: 'Draft' },
];
/** Where a field the server names shows its message. */
const fieldOfServer: Record<string, keyof ProductFormErrors> = {
  aliId: 'aliInput',
  title: 'title',
  slug: 'slug',
  price: 'price',
  salePrice: 'salePrice',
};

/**
 * The Add Product and Edit Product modals (spec 2): the product is read afresh for editing, then
 * the same form serves both.
 */
export function ProductDialog({
  productId,
  open,
  categories,
  onSaved,
  onClose,
}: {
  /** The product to edit; null to add one. */
  productId: string | null;
  open: boolean;
  categories: string[];
  onSaved: (message: string) => void;
  onClose: () => void;
}) {
  const product = useQuery({
    queryKey: ['product-edit', productId],
    enabled: open && productId !== null,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: () =>
      api.call<typeof getAdminProduct>({ method: 'GET', path: paths.one }, { params: { id: productId ?? '' } }),
  });
  if (!open) return null;
  if (productId !== null && !product.data) {
    return (
      <Modal open onClose={onClose} title="Edit Product">
        {product.error ? (
          <p role="alert" className="text-red-800">
            {errorMessage(product.error, 'Failed to load the product')}
          </p>
        ) : (
          <p role="status" className="text-stone-700">
            Loading product…
          </p>
        )}
      </Modal>
    );
  }
  return <ProductForm product={product.data ?? null} categories={categories} onSaved={onSaved} onClose={onClose} />;
}

type Notice = { kind: 'status' | 'error'; text: string };

function ProductForm({
  product,
  categories,
  onSaved,
  onClose,
}: {
  product: AdminProduct | null;
  categories: string[];
  onSaved: (message: string) => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<ProductFormState>(() => (product ? productFormOf(product) : emptyProductForm()));
  const [errors, setErrors] = useState<ProductFormErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  // Spec 4: the modal's messages (the fetches' and the AI's) clear after 5 s, as the tab's do.
  const { flash: notice, show } = useFlashMessage();
  const setNotice = ({ kind, text }: Notice) => show(kind === 'error' ? 'error' : 'success', text);
  const [fetching, setFetching] = useState<'info' | 'skus' | 'ai' | null>(null);
  const [infoFetched, setInfoFetched] = useState(false);
  const [aiOpen, setAiOpen] = useState(false);
  const [refusals, setRefusals] = useState(0);
  const { confirm, dialog } = useConfirm();
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  const editing = product !== null;
  const aliId = extractMarketplaceId(form.aliInput);

  const set = <Key extends keyof ProductFormState>(key: Key, value: ProductFormState[Key]) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (key in errors) setErrors((current) => ({ ...current, [key]: undefined }));
  };

  // Editing: the marketplace's stock, pictures and SKUs are read quietly (the form keeps its own values).
  const productAliId = product?.aliId ?? null;
  useEffect(() => {
    if (!productAliId) return;
    let cancelled = false;
    fetchProductInfo(productAliId).then(
      (info) => {
        if (cancelled) return;
        setForm((current) => ({
          ...current,
          marketStock: info.stock,
          marketplaceImages: [...info.imageUrls],
          availableSkus: info.variants.map(variantOfFetched),
          aliExpressPrice: current.aliExpressPrice ?? info.aliExpressPrice,
        }));
      },
      (failure: unknown) => console.warn('Marketplace info for the product could not be read', failure),
    );
    return () => {
      cancelled = true;
    };
  }, [productAliId]);

  // After a refused save the first field to correct takes the focus (as in the sale form).
  useEffect(() => {
    if (refusals === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  const fetchInfo = async () => {
    if (!aliId) {
      setErrors((current) => ({ ...current, aliInput: productMessages.aliIdRequired }));
      setRefusals((count) => count + 1);
      return;
    }
    setFetching('info');
    setNotice({ kind: 'status', text: 'Fetching product info…' });
    try {
      const info = await fetchProductInfo(aliId);
      setForm((current) => withProductInfo(current, info));
      setInfoFetched(true);
      setNotice({
        kind: 'status',
        text: `Product info fetched: ${info.variants.length === 1 ? '1 SKU' : `${info.variants.length} SKUs`}, ${info.imageUrls.length === 1 ? '1 image' : `${info.imageUrls.length} images`}.`,
      });
    } catch (failure) {
      setNotice({ kind: 'error', text: failureText('Failed to fetch product info', failure) });
    } finally {
      setFetching(null);
    }
  };
  const fetchSkus = async () => {
    const id = aliId ?? product?.aliId ?? null;
    if (!id) {
      setNotice({ kind: 'error', text: productMessages.skuIdRequired });
      return;
    }
    setFetching('skus');
    setNotice({ kind: 'status', text: 'Fetching SKUs…' });
    try {
      const variants = await fetchProductSkus(id);
      setForm((current) => withFetchedSkus(current, variants));
      setNotice({
        kind: 'status',
        text: variants.length === 1 ? '1 SKU fetched.' : `${variants.length} SKUs fetched.`,
      });
    } catch (failure) {
      setNotice({ kind: 'error', text: failureText('Failed to fetch SKUs', failure) });
    } finally {
      setFetching(null);
    }
  };

  const existingData = {
    title: form.title,
    description: form.description,
    features: form.features,
    tags: form.tags,
    categories: form.categories,
  };
  const imageUrls = [...form.images, ...form.marketplaceImages];
  const applyAi = (content: Parameters<typeof withAiContent>[1]) => {
    setForm((current) => withAiContent(current, content));
    setErrors((current) => ({ ...current, title: undefined }));
  };
  // The marketplace row's AI Autofill: the generator's default (Complete Product Info) in one step.
  const autofill = async () => {
    if (!editing && !infoFetched) {
      setNotice({ kind: 'error', text: 'Fetch product info first' });
      return;
    }
    const settings = initialAiContentForm();
    const checked = checkAiContentForm(settings, { productId: product?.id ?? null, aliId: aliId ?? '' });
    if ('error' in checked) {
      setNotice({ kind: 'error', text: checked.error });
      return;
    }
    const body = aiContentRequest(settings, { imageUrls, existingData });
    setFetching('ai');
    setNotice({ kind: 'status', text: 'Writing with AI…' });
    try {
      const answer =
        checked.target.kind === 'product'
          ? await api.call<typeof aiExtractForProduct>(
              { method: 'POST', path: '/api/aliexpress/ai-extract/:productId' },
              { params: { productId: checked.target.productId }, body },
            )
          : await api.call<typeof aiExtractForMarketplaceProduct>(
              { method: 'POST', path: '/api/aliexpress/ai-extract-by-ali/:aliId' },
              { params: { aliId: checked.target.aliId }, body },
            );
      const read = readAiContent(answer);
      if ('error' in read) {
        setNotice({ kind: 'error', text: read.error });
        return;
      }
      applyAi(read.content);
      setNotice({ kind: 'status', text: 'AI content applied: review it before saving.' });
    } catch (failure) {
      setNotice({
        kind: 'error',
        text:
          failure instanceof ApiRequestError ? failure.message || 'AI generation failed' : 'Failed to generate content',
      });
    } finally {
      setFetching(null);
    }
  };
  const uploadVariantImage: UploadVariantImage = async (file, n, onProgress) => {
    const { url } = await uploadImageFile(file, { productId: product?.id ?? null, aliId, n }, onProgress);
    return url;
  };

  const save = useMutation({
    mutationFn: (body: ProductInput) =>
      product
        ? api.call<typeof updateAdminProduct>(
            { method: 'PATCH', path: paths.update },
            { params: { id: product.id }, body },
          )
        : api.call<typeof createAdminProduct>({ method: 'POST', path: paths.create }, { body }),
    onMutate: () => setSaveError(null),
    onSuccess: (answer) => onSaved(answer.message),
    onError: (failure) => {
      // Spec 8: the add and update failures in their words; a field the server names shows beside it.
      if (failure instanceof ApiRequestError) {
        const field = failure.field ? fieldOfServer[failure.field] : undefined;
        if (field) {
          setErrors((current) => ({ ...current, [field]: failure.message }));
          setRefusals((count) => count + 1);
        }
        setSaveError(
          editing
            ? failure.message || 'Failed to update product'
            : `Failed to add product: ${failure.message || 'Failed to create product'}`,
        );
      } else {
        setSaveError(editing ? 'Failed to update product' : 'An unexpected error occurred while adding the product.');
      }
    },
  });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    let priceChanged = false;
    if (product && needsPriceConfirm(form, product.price)) {
      const yes = await confirm({
        title: 'Overwrite SKU prices?',
        message: productMessages.priceOverwrite,
        confirmLabel: 'Overwrite SKU prices',
      });
      if (!yes) return;
      priceChanged = true;
    }
    const read = readProductForm(form, { priceChanged });
    if ('errors' in read) {
      setErrors(read.errors);
      setRefusals((count) => count + 1);
      return;
    }
    save.mutate(read.body);
  };

  const one = singleSku(form);
  const fetchSkusButton = (
    <button type="button" className={secondaryButton} disabled={fetching !== null} onClick={() => void fetchSkus()}>
      {fetching === 'skus'
        ? 'Fetching SKUs…'
        : form.availableSkus.length > 0 || form.skuVariants.length > 0
          ? 'Refresh SKUs'
          : 'Fetch SKUs'}
    </button>
  );

  return (
    <Modal
      open
      onClose={onClose}
      title={editing ? 'Edit Product' : 'Add Product'}
      size="xl"
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className={primaryButton} disabled={save.isPending}>
            {editing
              ? save.isPending
                ? 'Updating...'
                : 'Update Product'
              : save.isPending
                ? 'Creating…'
                : 'Create Product'}
          </button>
        </>
      }
    >
      {/* The form scrolls inside the panel: a panel taller than the window would lose its top. */}
      <div className="-mx-6 max-h-[calc(100vh-13rem)] overflow-y-auto px-6">
        <form ref={formRef} id={formId} onSubmit={(event) => void submit(event)} noValidate className="grid gap-5 pb-1">
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl bg-sage-50 px-4 py-3">
            <p className="text-sm text-stone-700">
              Let the AI Content Generator write the title, description, features and tags.
            </p>
            <button type="button" className={secondaryButton} onClick={() => setAiOpen(true)}>
              Open AI Content Generator
            </button>
          </div>
          {saveError ? (
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
              {saveError}
            </p>
          ) : null}
          <fieldset className="rounded-xl border border-sage-100 p-4">
            <legend className="px-1 text-sm font-medium text-stone-800">Marketplace</legend>
            <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
              <InputField
                label="AliExpress Product ID or URL (required)"
                value={form.aliInput}
                onChange={(value) => set('aliInput', value)}
                error={errors.aliInput}
                hint={
                  aliId && aliId !== form.aliInput.trim()
                    ? `Product ID ${aliId}`
                    : 'The number, or a product page address.'
                }
                inputProps={{ required: true, maxLength: 2000, spellCheck: false }}
              />
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={fetching !== null}
                  onClick={() => void fetchInfo()}
                >
                  {fetching === 'info' ? 'Fetching…' : 'Fetch Product Info'}
                </button>
                {editing ? null : fetchSkusButton}
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={fetching !== null}
                  onClick={() => void autofill()}
                >
                  {fetching === 'ai' ? 'Writing…' : 'AI Autofill'}
                </button>
              </div>
            </div>
            <div className="mt-3">
              <FlashMessage flash={notice} />
            </div>
            <div className="mt-3 grid gap-3 sm:grid-cols-3">
              {product ? <ReadOnly label="Product ID" value={product.id} /> : null}
              <ReadOnly label="Marketplace stock" value={form.marketStock === null ? '—' : String(form.marketStock)} />
              {form.aliExpressPrice !== null ? (
                <ReadOnly label="Marketplace price" value={formatCents(form.aliExpressPrice)} />
              ) : null}
            </div>
          </fieldset>

          <div className="grid gap-4 sm:grid-cols-2">
            <InputField
              label="Title (required)"
              value={form.title}
              onChange={(value) => set('title', value)}
              error={errors.title}
              inputProps={{ required: true, maxLength: 200 }}
            />
            <InputField
              label="URL slug"
              value={form.slug}
              onChange={(value) => set('slug', value)}
              error={errors.slug}
              hint={editing ? 'Empty keeps the current one.' : 'Empty: made from the title.'}
              inputProps={{ maxLength: 100, spellCheck: false }}
            />
            <div className="sm:col-span-2">
              <InputField
                label="Description"
                value={form.description}
                onChange={(value) => set('description', value)}
                multiline
                rows={6}
              />
            </div>
            <InputField
              label="Price in USD (required)"
              type="number"
              value={form.price}
              onChange={(value) => set('price', value)}
              error={errors.price}
              hint={one ? 'Also the price of the one SKU.' : undefined}
              inputProps={{ required: true, min: 0, step: 0.01 }}
            />
            <InputField
              label="Sale price in USD"
              type="number"
              value={form.salePrice}
              onChange={(value) => set('salePrice', value)}
              error={errors.salePrice}
              hint="Optional."
              inputProps={{ min: 0, step: 0.01 }}
            />
            <SelectField
              label="Status"
              value={form.status}
              options={statusOptions}
              onChange={(v) => set('status', v)}
            />
            {product?.status === 'archived' ? (
              <p className="self-end rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
                Archived: it has orders, so Delete kept it. Updating it brings it back with the status chosen here.
              </p>
            ) : null}
          </div>

          <CategoryPicker
            selected={form.categories}
            choices={categories}
            onChange={(value) => set('categories', value)}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <DynamicList legend="Tags" noun="Tag" rows={form.tags} onChange={(value) => set('tags', value)} />
            <DynamicList
              legend="Features"
              noun="Feature"
              rows={form.features}
              onChange={(value) => set('features', value)}
            />
          </div>

          <SkuVariantsSection
            form={form}
            onChange={(change) => setForm((current) => ({ ...current, ...change }))}
            fetchButton={editing ? fetchSkusButton : null}
            productImages={form.images}
            uploadImage={uploadVariantImage}
          />
          <ImageManager
            images={form.images}
            onChange={(images) => set('images', images)}
            productId={product?.id ?? null}
            aliId={aliId}
            marketplaceImages={form.marketplaceImages}
            onRefreshMarketplaceImages={(images) => set('marketplaceImages', images)}
            skuImagePosition={form.skuImagePosition}
            onSkuImagePositionChange={(position) => set('skuImagePosition', position)}
            showSkuPosition={!one && form.skuVariants.length > 0}
          />
        </form>
      </div>
      <AiContentGenerator
        open={aiOpen}
        onClose={() => setAiOpen(false)}
        onApply={applyAi}
        productId={product?.id ?? null}
        aliId={aliId ?? ''}
        existingData={existingData}
        imageUrls={imageUrls}
      />
      {dialog}
    </Modal>
  );
}

/** A read-only value of the form, labelled like the fields. */
function ReadOnly({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <input id={id} value={value} readOnly className={`mt-1 ${input} bg-stone-50`} />
    </div>
  );
}

/** A failed marketplace call in the spec's words, with the server's reason when it gave one. */
function failureText(base: string, failure: unknown): string {
  return failure instanceof ApiRequestError && failure.message ? `${base}: ${failure.message}` : base;
}

import { useEffect, useId, useRef, useState } from 'react';
import { UPLOAD_STATUS_CLEAR_MS } from '#common/constants.ts';
import { PLACEHOLDER_IMAGE } from '#common/images.ts';
import { formatCents } from '#common/money.ts';
import {
  IMAGE_TYPES,
  imageCountMessage,
  MAX_VARIANT_IMAGES,
  SKU_IMAGE_PICKS,
  singleSkuNote,
} from '#common/product-rules.ts';
import { InputField } from '../ui/fields.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { Modal } from '../ui/modal.tsx';
import { dangerButton, input, label as labelStyle, primaryButton, secondaryButton, smallButton } from '../ui/styles.ts';
import { imageFileProblem } from './image-upload.ts';
import {
  availableToAdd,
  emptySkuDraft,
  type ProductFormState,
  readSkuDraft,
  type SkuDraft,
  singleSku,
  skuDraftOf,
  type Variant,
  withGalleryImage,
} from './product-form.ts';

/** Uploads one variant image; resolves with its URL. */
export type UploadVariantImage = (file: File, n: number, onProgress: (percent: number) => void) => Promise<string>;

type Editing = { draft: SkuDraft; index: number | null };

/**
 * The SKU Variants section (spec 2 and 4): with one valid SKU, only the note saying it is used
 * for every purchase; with several, the variant label, the searchable list of fetched SKUs to
 * add, and the grid of the product's SKUs, each opening the SKU editor.
 */
export function SkuVariantsSection({
  form,
  onChange,
  fetchButton,
  productImages,
  uploadImage,
}: {
  form: ProductFormState;
  onChange: (change: Partial<Pick<ProductFormState, 'skuVariants' | 'variantLabel'>>) => void;
  /** The Fetch SKUs / Refresh SKUs button, where the modal puts it in this section. */
  fetchButton: React.ReactNode;
  productImages: string[];
  uploadImage: UploadVariantImage | null;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing | null>(null);
  // Where the focus goes once the editor closes: the saved SKU's card, else the section's heading
  // (the Add button that opened the editor is gone once its SKU is added).
  const [focusAfter, setFocusAfter] = useState<{ skuAttr: string | null } | null>(null);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!focusAfter) return;
    // After the dialog has given the focus back to its opener (or found it gone).
    const frame = requestAnimationFrame(() => {
      const root = section.current;
      if (!root) return;
      const card = focusAfter.skuAttr
        ? [...root.querySelectorAll<HTMLElement>('[data-sku-attr]')].find(
            (element) => element.dataset.skuAttr === focusAfter.skuAttr,
          )
        : undefined;
      (card ?? root.querySelector<HTMLElement>('h3'))?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [focusAfter]);
  const one = singleSku(form);
  const toAdd = one ? [] : availableToAdd(form, search);

  const save = (variant: Variant) => {
    if (!editing) return;
    const skuVariants =
      editing.index === null
        ? [...form.skuVariants, variant]
        : form.skuVariants.map((current, i) => (i === editing.index ? variant : current));
    onChange({ skuVariants });
    setEditing(null);
    setFocusAfter({ skuAttr: variant.skuAttr });
  };
  const remove = () => {
    if (editing?.index == null) return;
    onChange({ skuVariants: form.skuVariants.filter((_, i) => i !== editing.index) });
    setEditing(null);
    setFocusAfter({ skuAttr: null });
  };
  const aliImageOf = (skuAttr: string) =>
    form.availableSkus.find((variant) => variant.skuAttr === skuAttr)?.image ??
    form.skuVariants.find((variant) => variant.skuAttr === skuAttr)?.image ??
    null;

  return (
    <section ref={section} aria-labelledby={`${id}-heading`} className="rounded-xl border border-sage-100 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`${id}-heading`} tabIndex={-1} className="font-medium text-stone-900 focus:outline-none">
          SKU Variants
        </h3>
        {fetchButton}
      </div>
      {one ? (
        <p role="status" className="mt-3 rounded-lg bg-sage-50 px-4 py-3 text-sm text-sage-900">
          {singleSkuNote(one.name || one.skuAttr || one.skuId)}
        </p>
      ) : (
        <>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            <InputField
              label="Variant label"
              value={form.variantLabel}
              onChange={(variantLabel) => onChange({ variantLabel })}
              hint="What shoppers choose, e.g. Color or Size."
              inputProps={{ maxLength: 60 }}
            />
            {form.availableSkus.length > 0 ? (
              <div>
                <label htmlFor={`${id}-search`} className={labelStyle}>
                  Search available SKUs
                </label>
                <input
                  id={`${id}-search`}
                  type="search"
                  value={search}
                  maxLength={100}
                  onChange={(event) => setSearch(event.target.value)}
                  className={`mt-1 ${input}`}
                />
              </div>
            ) : null}
          </div>
          {form.availableSkus.length > 0 ? (
            <div className="mt-3">
              <h4 className="text-sm font-medium text-stone-800">Available SKUs</h4>
              {toAdd.length === 0 ? (
                <p className="mt-1 text-sm text-stone-600">
                  {search.trim() ? 'No available SKU matches.' : 'Every fetched SKU is added.'}
                </p>
              ) : (
                <ul className="mt-2 max-h-60 divide-y divide-sage-100 overflow-y-auto rounded-lg border border-sage-100">
                  {toAdd.map((variant) => (
                    <li key={variant.skuAttr} className="flex items-center gap-3 px-3 py-2 text-sm">
                      <img
                        src={variant.image ?? PLACEHOLDER_IMAGE}
                        alt=""
                        width={32}
                        height={32}
                        className="h-8 w-8 rounded object-cover"
                      />
                      <span className="flex-1">
                        <span className="text-stone-900">{variant.name}</span>{' '}
                        <span className="text-stone-600">
                          {formatCents(variant.salePrice ?? variant.price)} · {variant.stock} in stock
                        </span>
                      </span>
                      <button
                        type="button"
                        className={smallButton}
                        onClick={() => setEditing({ draft: skuDraftOf(variant), index: null })}
                        aria-label={`Add ${variant.name}`}
                      >
                        Add
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ) : null}
          <div className="mt-4 flex items-center justify-between gap-3">
            <h4 className="text-sm font-medium text-stone-800">Active SKUs ({form.skuVariants.length})</h4>
            <button
              type="button"
              className={smallButton}
              onClick={() => setEditing({ draft: emptySkuDraft(), index: null })}
            >
              New SKU
            </button>
          </div>
          {form.skuVariants.length === 0 ? (
            <p className="mt-1 text-sm text-stone-600">No SKU yet: fetch the marketplace's SKUs and add them.</p>
          ) : (
            <ul className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {form.skuVariants.map((variant, index) => (
                <li key={variant.skuAttr}>
                  <button
                    type="button"
                    data-sku-attr={variant.skuAttr}
                    onClick={() => setEditing({ draft: skuDraftOf(variant), index })}
                    className="flex w-full items-start gap-3 rounded-lg border border-sage-200 p-3 text-left text-sm hover:bg-sage-50"
                  >
                    <img
                      src={variant.image ?? variant.images[0] ?? PLACEHOLDER_IMAGE}
                      alt=""
                      width={48}
                      height={48}
                      className="h-12 w-12 rounded object-cover"
                    />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium text-stone-900">
                        <span className="sr-only">Edit SKU </span>
                        {variant.name}
                      </span>
                      <span className="block text-stone-700">
                        {formatCents(variant.price)}
                        {variant.salePrice !== null ? ` · sale ${formatCents(variant.salePrice)}` : ''}
                      </span>
                      <span className="block text-stone-600">
                        {variant.stock} in stock · {variant.isActive ? 'Active' : 'Inactive'}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {editing ? (
        <SkuEditor
          key={editing.index ?? `new-${editing.draft.skuAttr}`}
          editing={editing}
          otherSkuAttrs={form.skuVariants.filter((_, i) => i !== editing.index).map((variant) => variant.skuAttr)}
          aliImage={aliImageOf(editing.draft.skuAttr)}
          productImages={productImages}
          uploadImage={uploadImage}
          onSave={save}
          onDelete={remove}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

/**
 * The SKU editor (spec 2 and 5): name, Active/Inactive, the marketplace SKU (skuAttr), price,
 * sale price, stock, image URL, a gallery of up to 8 images (Use Ali Image, picks from the first
 * 8 product images, an uploader); Cancel, Delete SKU, and Add Variant or Save Changes.
 */
function SkuEditor({
  editing,
  otherSkuAttrs,
  aliImage,
  productImages,
  uploadImage,
  onSave,
  onDelete,
  onClose,
}: {
  editing: Editing;
  otherSkuAttrs: string[];
  aliImage: string | null;
  productImages: string[];
  uploadImage: UploadVariantImage | null;
  onSave: (variant: Variant) => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<SkuDraft>(editing.draft);
  const [error, setError] = useState<string | null>(null);
  // Spec 4: the upload status clears after 3 s.
  const { flash: uploadStatus, show: showUpload } = useFlashMessage(UPLOAD_STATUS_CLEAR_MS);
  const setUpload = (text: string, kind: 'success' | 'error' = 'success') => showUpload(kind, text);
  const adding = editing.index === null;
  const set = <Key extends keyof SkuDraft>(key: Key, value: SkuDraft[Key]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setError(null);
  };
  const addToGallery = (url: string) =>
    setDraft((current) => ({
      ...current,
      image: current.image || url,
      images: withGalleryImage(current.images, url),
    }));
  const submit = () => {
    const read = readSkuDraft(draft, otherSkuAttrs);
    if ('error' in read) setError(read.error);
    else onSave(read.variant);
  };
  const full = draft.images.length >= MAX_VARIANT_IMAGES;

  const onFiles = async (files: FileList | null) => {
    if (!files || !uploadImage) return;
    const list = [...files];
    const problem = list.map(imageFileProblem).find((found) => found !== null);
    if (problem) {
      setUpload(problem, 'error');
      return;
    }
    if (draft.images.length + list.length > MAX_VARIANT_IMAGES) {
      setUpload(imageCountMessage(MAX_VARIANT_IMAGES, draft.images.length), 'error');
      return;
    }
    let n = draft.images.length;
    for (const file of list) {
      n += 1;
      try {
        setUpload(`Uploading ${file.name}… 0%`);
        const url = await uploadImage(file, n, (percent) => setUpload(`Uploading ${file.name}… ${percent}%`));
        addToGallery(url);
        setUpload('Upload complete');
      } catch (failure) {
        // Spec 8: a variant image that fails to upload is logged; the others are kept.
        console.error('Variant image upload failed', failure);
        setUpload('Upload failed', 'error');
        return;
      }
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={adding ? 'Add Variant' : 'Edit SKU'}
      size="lg"
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          {adding ? null : (
            <button type="button" className={dangerButton} onClick={onDelete}>
              Delete SKU
            </button>
          )}
          <button type="button" className={primaryButton} onClick={submit}>
            {adding ? 'Add Variant' : 'Save Changes'}
          </button>
        </>
      }
    >
      <div className="-mx-6 grid max-h-[calc(100vh-13rem)] gap-4 overflow-y-auto px-6 pb-1 sm:grid-cols-2">
        {error ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 sm:col-span-2">
            {error}
          </p>
        ) : null}
        <InputField
          label="Name (required)"
          value={draft.name}
          onChange={(value) => set('name', value)}
          inputProps={{ maxLength: 200 }}
        />
        <div>
          <span className={labelStyle} id={`${id}-active`}>
            Availability
          </span>
          <button
            type="button"
            role="switch"
            aria-checked={draft.isActive}
            aria-labelledby={`${id}-active`}
            onClick={() => set('isActive', !draft.isActive)}
            className={`mt-1 ${draft.isActive ? primaryButton : secondaryButton}`}
          >
            {draft.isActive ? 'Active' : 'Inactive'}
          </button>
        </div>
        <div className="sm:col-span-2">
          <InputField
            label="AliExpress SKU (skuAttr) (required)"
            value={draft.skuAttr}
            onChange={(value) => set('skuAttr', value)}
            hint="The marketplace's attribute string the supplier order uses, e.g. 14:193#Black."
            inputProps={{ maxLength: 500, spellCheck: false }}
          />
        </div>
        <InputField
          label="Price in USD (required)"
          type="number"
          value={draft.price}
          onChange={(value) => set('price', value)}
          inputProps={{ min: 0, step: 0.01 }}
        />
        <InputField
          label="Sale price in USD"
          type="number"
          value={draft.salePrice}
          onChange={(value) => set('salePrice', value)}
          hint="Optional."
          inputProps={{ min: 0, step: 0.01 }}
        />
        <InputField
          label="Stock"
          type="number"
          value={draft.stock}
          onChange={(value) => set('stock', value)}
          inputProps={{ min: 0, step: 1 }}
        />
        <div>
          <InputField
            label="Image URL"
            value={draft.image}
            onChange={(value) => set('image', value)}
            inputProps={{ maxLength: 2000, spellCheck: false }}
          />
          <button
            type="button"
            className={`mt-2 ${smallButton}`}
            disabled={!aliImage}
            onClick={() => {
              if (!aliImage) return;
              set('image', aliImage);
              addToGallery(aliImage);
            }}
          >
            Use Ali Image
          </button>
        </div>
        <fieldset className="rounded-xl border border-sage-100 p-3 sm:col-span-2">
          <legend className="px-1 text-sm font-medium text-stone-800">
            Variant images ({draft.images.length}/{MAX_VARIANT_IMAGES})
          </legend>
          {draft.images.length === 0 ? (
            <p className="text-sm text-stone-600">No variant image yet.</p>
          ) : (
            <ul className="flex flex-wrap gap-2">
              {draft.images.map((url, index) => (
                <li key={url} className="relative">
                  <img
                    src={url}
                    alt={`Variant ${index + 1}`}
                    width={64}
                    height={64}
                    className={`h-16 w-16 rounded border object-cover ${draft.image === url ? 'border-sage-700 ring-2 ring-sage-300' : 'border-sage-100'}`}
                  />
                  <div className="mt-1 flex gap-1">
                    <button
                      type="button"
                      className="text-xs text-sage-800 underline"
                      onClick={() => set('image', url)}
                      aria-label={`Use variant image ${index + 1} as the main image`}
                      aria-pressed={draft.image === url}
                    >
                      Main
                    </button>
                    <button
                      type="button"
                      className="text-xs text-red-800 underline"
                      onClick={() =>
                        setDraft((current) => ({
                          ...current,
                          images: current.images.filter((image) => image !== url),
                          image: current.image === url ? '' : current.image,
                        }))
                      }
                      aria-label={`Remove variant image ${index + 1}`}
                    >
                      Remove
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          {productImages.length > 0 ? (
            <div className="mt-3">
              <p className="text-sm font-medium text-stone-800">Pick from the product images</p>
              <ul className="mt-1 flex flex-wrap gap-2">
                {productImages.slice(0, SKU_IMAGE_PICKS).map((url, index) => {
                  const picked = draft.images.includes(url);
                  return (
                    <li key={url}>
                      <button
                        type="button"
                        disabled={!picked && full}
                        aria-pressed={picked}
                        aria-label={`Product image ${index + 1}`}
                        onClick={() =>
                          picked
                            ? setDraft((current) => ({
                                ...current,
                                images: current.images.filter((image) => image !== url),
                              }))
                            : addToGallery(url)
                        }
                        className={`rounded border-2 disabled:opacity-50 ${picked ? 'border-sage-700' : 'border-transparent'}`}
                      >
                        <img src={url} alt="" width={48} height={48} className="h-12 w-12 rounded object-cover" />
                      </button>
                    </li>
                  );
                })}
              </ul>
            </div>
          ) : null}
          {uploadImage ? (
            <div className="mt-3">
              <label htmlFor={`${id}-upload`} className={labelStyle}>
                Upload variant images
              </label>
              <input
                id={`${id}-upload`}
                type="file"
                multiple
                accept={IMAGE_TYPES.join(',')}
                disabled={full}
                onChange={(event) => {
                  void onFiles(event.target.files);
                  event.target.value = '';
                }}
                className="mt-1 block text-sm text-stone-700"
              />
              <div className="mt-2">
                <FlashMessage flash={uploadStatus} />
              </div>
            </div>
          ) : null}
        </fieldset>
      </div>
    </Modal>
  );
}

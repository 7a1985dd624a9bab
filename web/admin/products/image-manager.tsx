import { useEffect, useId, useRef, useState } from 'react';
import { UPLOAD_STATUS_CLEAR_MS } from '#common/constants.ts';
import type { fetchMarketplaceImages, uploadMarketplaceImage } from '#common/contracts/admin/marketplace.ts';
import type { renameProductImage } from '#common/contracts/admin/product-images.ts';
import { PLACEHOLDER_IMAGE, renditionUrl } from '#common/images.ts';
import { IMAGE_TYPES, imageCountMessage, MAX_PRODUCT_IMAGES } from '#common/product-rules.ts';
import { FlashMessage, useFlashMessage } from '#web/admin/ui/flash-message.tsx';
import { input, label as labelStyle, primaryButton, secondaryButton, smallButton } from '#web/admin/ui/styles.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import {
  dedupeImageUrls,
  fromGridItems,
  type GridItem,
  gridItems,
  imageDisplayName,
  imageFileProblem,
  marketplaceChoices,
  moveItem,
  normaliseImageUrl,
  renameBase,
  uploadImageFile,
} from './image-upload.ts';

/** Spec 8: the image manager's sentences. */
export const imageMessages = {
  uploadFailed: 'Failed to upload images. Please try again.',
  marketplaceFailed: 'Failed to upload AliExpress image.',
  deleteFailed: 'Failed to delete image.',
  renameFailed: 'Failed to rename image.',
  uploadStatusFailed: 'Upload failed',
  refreshFailed: 'Failed to fetch product info',
  nameRequired: 'Enter a name for the image.',
} as const;

type Upload = { id: number; name: string; percent: number; failed: boolean };
type Renaming = { url: string; value: string; error: string | null; busy: boolean };

export type ImageManagerProps = {
  /** The product's image URLs, in order. */
  images: string[];
  onChange: (images: string[]) => void;
  /** The saved product's id (uploads go to products/{id}/), or null while it is being created (drafts/). */
  productId: string | null;
  /** The marketplace product id: drafts/{aliId}/ before the product is saved, and the marketplace images' source. */
  aliId: string | null;
  /** The marketplace's images (Fetch Product Info's imageUrls), offered for upload. */
  marketplaceImages: string[];
  /** Told the list a Refresh fetched, for a form that keeps it. */
  onRefreshMarketplaceImages?: (images: string[]) => void;
  /** Where the SKU images appear among the product's images (before the image at that index); null: after the last. */
  skuImagePosition: number | null;
  onSkuImagePositionChange: (position: number | null) => void;
  showSkuPosition: boolean;
};

const itemKey = (item: GridItem) => (item.kind === 'sku' ? 'sku' : item.url);

/**
 * The product-level image manager (spec 2, Image manager; 4, Images; 5, Image upload): the header
 * with the count, an upload area (a button and a drop zone, several files, each with its
 * progress), the marketplace images with Refresh (choosing one uploads it and moves it to the
 * current images), and the current images grid: drag to reorder, or Move earlier / Move later
 * from the keyboard; rename; delete; and the SKU Position block, movable the same ways.
 */
export function ImageManager({
  images,
  onChange,
  productId,
  aliId,
  marketplaceImages,
  onRefreshMarketplaceImages,
  skuImagePosition,
  onSkuImagePositionChange,
  showSkuPosition,
}: ImageManagerProps) {
  const id = useId();
  const { flash, show } = useFlashMessage();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [fetched, setFetched] = useState<string[] | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const [moved, setMoved] = useState<ReadonlySet<string>>(new Set());
  const [takingUrl, setTakingUrl] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<Renaming | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  // The dragged cell as the drag's own events see it (state would lag a render behind a fast drop).
  const dragFrom = useRef<number | null>(null);
  const [dropTarget, setDropTarget] = useState<number | null>(null);
  const [filesOver, setFilesOver] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLOListElement>(null);
  const renameInput = useRef<HTMLInputElement>(null);
  // The latest images, for uploads that finish after the props have moved on.
  const latest = useRef(images);
  latest.current = images;
  const pending = useRef(0);
  const nextUploadId = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const running = timers.current;
    return () => {
      for (const timer of running) clearTimeout(timer);
    };
  }, []);

  // After a keyboard move, the focus stays on the moved cell's button (or its other one at an end).
  useEffect(() => {
    if (!focusKey || !grid.current) return;
    const [key, action] = focusKey.split('\u0000');
    const buttons = [...grid.current.querySelectorAll<HTMLButtonElement>('button[data-action]')].filter(
      (button) => button.dataset.item === key && !button.disabled,
    );
    (buttons.find((button) => button.dataset.action === action) ?? buttons[0])?.focus();
    setFocusKey(null);
  }, [focusKey]);

  useEffect(() => {
    if (renaming && !renaming.busy) renameInput.current?.focus();
  }, [renaming]);

  const items = gridItems(images, skuImagePosition, showSkuPosition);
  const choices = marketplaceChoices(fetched ?? marketplaceImages, images, moved);

  const later = (run: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      run();
    }, ms);
    timers.current.add(timer);
  };

  const commitImages = (next: string[]) => {
    latest.current = next;
    onChange(next);
  };

  /** Applies a new order (or a removal) of the grid's cells: the images, and the SKU position when it moved. */
  const commitGrid = (next: GridItem[]) => {
    const result = fromGridItems(next);
    commitImages(result.images);
    // An unset position (after the last image) stays unset while the block stays last.
    const position =
      skuImagePosition === null && result.skuImagePosition === result.images.length ? null : result.skuImagePosition;
    if (showSkuPosition && position !== skuImagePosition) onSkuImagePositionChange(position);
  };

  const itemLabel = (item: GridItem, index: number) =>
    item.kind === 'sku' ? 'SKU Position' : `Image ${imagePosition(index)} (${imageDisplayName(item.url)})`;
  /** An image's position among the images (the SKU block is not one). */
  const imagePosition = (gridIndex: number) =>
    items.slice(0, gridIndex + 1).filter((item) => item.kind === 'image').length;

  function move(from: number, to: number, viaKeyboard: boolean) {
    const item = items[from];
    if (!item || to < 0 || to >= items.length || from === to) return;
    const next = moveItem(items, from, to);
    commitGrid(next);
    setAnnouncement(`${itemLabel(item, from)} moved to position ${to + 1} of ${items.length}.`);
    if (viaKeyboard) setFocusKey(`${itemKey(item)}\u0000${to < from ? 'earlier' : 'later'}`);
  }

  function removeImage(url: string) {
    try {
      const index = items.findIndex((item) => item.kind === 'image' && item.url === url);
      if (index === -1) return;
      commitGrid(items.filter((_, position) => position !== index));
      if (renaming?.url === url) setRenaming(null);
      setAnnouncement(`${imageDisplayName(url)} removed.`);
    } catch {
      show('error', imageMessages.deleteFailed);
    }
  }

  async function uploadFiles(files: File[]) {
    if (files.length === 0) return;
    const problem = files.map(imageFileProblem).find((text) => text !== null);
    if (problem) {
      show('error', problem);
      return;
    }
    const have = latest.current.length + pending.current;
    if (have + files.length > MAX_PRODUCT_IMAGES) {
      show('error', imageCountMessage(MAX_PRODUCT_IMAGES, have));
      return;
    }
    const tasks = files.map((file) => ({ id: ++nextUploadId.current, name: file.name, percent: 0, failed: false }));
    setUploads((current) => [...current, ...tasks]);
    pending.current += files.length;
    let failure: unknown = null;
    let done = 0;
    for (const [index, file] of files.entries()) {
      const task = tasks[index] as Upload;
      const update = (change: Partial<Upload>) =>
        setUploads((current) => current.map((upload) => (upload.id === task.id ? { ...upload, ...change } : upload)));
      try {
        const { url } = await uploadImageFile(file, { productId, aliId, n: latest.current.length + 1 }, (percent) =>
          update({ percent }),
        );
        commitImages(dedupeImageUrls([...latest.current, url]));
        setUploads((current) => current.filter((upload) => upload.id !== task.id));
        done += 1;
      } catch (error) {
        failure = error;
        // Spec 4: the upload status text clears after 3 s.
        update({ failed: true });
        later(() => setUploads((current) => current.filter((upload) => upload.id !== task.id)), UPLOAD_STATUS_CLEAR_MS);
      } finally {
        pending.current -= 1;
      }
    }
    if (failure) show('error', uploadFailure(failure));
    else show('success', done === 1 ? 'Image uploaded.' : `${done} images uploaded.`);
  }

  async function refresh() {
    if (!aliId) return;
    setRefreshing(true);
    try {
      const { images: found } = await api.call<typeof fetchMarketplaceImages>(
        { method: 'POST', path: '/api/admin/fetch-aliexpress-images' },
        { body: { productId, aliExpressUrl: aliId } },
      );
      setFetched(found);
      onRefreshMarketplaceImages?.(found);
      setAnnouncement(`${marketplaceChoices(found, latest.current, moved).length} marketplace images.`);
    } catch (error) {
      show('error', errorMessage(error, imageMessages.refreshFailed));
    } finally {
      setRefreshing(false);
    }
  }

  async function takeMarketplaceImage(imageUrl: string) {
    const have = latest.current.length + pending.current;
    if (have + 1 > MAX_PRODUCT_IMAGES) {
      show('error', imageCountMessage(MAX_PRODUCT_IMAGES, have));
      return;
    }
    setTakingUrl(imageUrl);
    pending.current += 1;
    try {
      const { url } = await api.call<typeof uploadMarketplaceImage>(
        { method: 'POST', path: '/api/admin/upload-aliexpress-image' },
        { body: { productId, aliId, imageUrl, position: latest.current.length + 1 } },
      );
      setMoved((current) => new Set([...current, normaliseImageUrl(imageUrl)]));
      commitImages(dedupeImageUrls([...latest.current, url]));
      setAnnouncement('Marketplace image added to the current images.');
    } catch {
      show('error', imageMessages.marketplaceFailed);
    } finally {
      pending.current -= 1;
      setTakingUrl(null);
    }
  }

  /** Closes the rename field; the focus goes back to the image's Rename button. */
  function closeRename(url = renaming?.url) {
    setRenaming(null);
    if (url) setFocusKey(`${url}\u0000rename`);
  }

  async function submitRename() {
    if (!renaming) return;
    const name = renameBase(renaming.value);
    if (!name) {
      setRenaming({ ...renaming, error: imageMessages.nameRequired });
      renameInput.current?.focus();
      return;
    }
    setRenaming({ ...renaming, busy: true, error: null });
    try {
      const { url } = await api.call<typeof renameProductImage>(
        { method: 'POST', path: '/api/admin/product-images/rename' },
        { body: { url: renaming.url, name } },
      );
      commitImages(dedupeImageUrls(latest.current.map((current) => (current === renaming.url ? url : current))));
      closeRename(url);
      show('success', `Image renamed to ${imageDisplayName(url)}.`);
    } catch {
      setRenaming((current) => (current ? { ...current, busy: false } : current));
      show('error', imageMessages.renameFailed);
    }
  }

  const isFileDrag = (event: React.DragEvent) => event.dataTransfer.types.includes('Files');

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-sage-100 p-4">
      <h3 id={`${id}-heading`} className="font-medium text-stone-900">
        Product Images ({images.length}/{MAX_PRODUCT_IMAGES})
      </h3>
      <FlashMessage flash={flash} />
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>

      {/* The drop zone: the button inside is its keyboard way. */}
      <fieldset
        className={`mt-3 rounded-xl border-2 border-dashed p-4 text-center text-sm ${
          filesOver ? 'border-sage-600 bg-sage-50' : 'border-sage-200'
        }`}
        onDragOver={(event) => {
          if (!isFileDrag(event)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setFilesOver(true);
        }}
        onDragLeave={() => setFilesOver(false)}
        onDrop={(event) => {
          if (!isFileDrag(event)) return;
          event.preventDefault();
          setFilesOver(false);
          void uploadFiles([...event.dataTransfer.files]);
        }}
      >
        <legend className="sr-only">Upload images</legend>
        <input
          ref={fileInput}
          id={`${id}-files`}
          type="file"
          multiple
          accept={[...IMAGE_TYPES, '.jpg', '.jpeg', '.png', '.webp'].join(',')}
          hidden
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            event.currentTarget.value = '';
            void uploadFiles(files);
          }}
        />
        <button type="button" className={secondaryButton} onClick={() => fileInput.current?.click()}>
          Upload Images
        </button>
        <p className="mt-2 text-stone-600">or drop JPEG, PNG or WebP images here (each under 5MB)</p>
        {uploads.length > 0 ? (
          <ul className="mt-3 space-y-2 text-left" aria-label="Uploads">
            {uploads.map((upload) => (
              <li key={upload.id} className="flex items-center gap-3">
                <span className="min-w-0 flex-1 truncate text-stone-800">{upload.name}</span>
                {upload.failed ? (
                  <span role="status" className="text-red-800">
                    {imageMessages.uploadStatusFailed}
                  </span>
                ) : (
                  <>
                    <progress
                      className="w-32"
                      max={100}
                      value={upload.percent}
                      aria-label={`Uploading ${upload.name}`}
                    />
                    <span className="w-10 text-right text-stone-700">{upload.percent}%</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </fieldset>

      <div className="mt-4">
        <div className="flex items-center justify-between gap-2">
          <h4 className="text-sm font-medium text-stone-800">Marketplace Images ({choices.length})</h4>
          <button type="button" className={smallButton} disabled={!aliId || refreshing} onClick={() => void refresh()}>
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
        {choices.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">
            {aliId ? 'No marketplace images to add.' : 'Enter the marketplace product ID to see its images.'}
          </p>
        ) : (
          <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-5">
            {choices.map((url, index) => (
              <li key={url}>
                <button
                  type="button"
                  className="block w-full overflow-hidden rounded-lg border border-sage-200 hover:border-sage-600 focus-visible:outline-2 focus-visible:outline-sage-700 disabled:opacity-60"
                  disabled={takingUrl !== null}
                  aria-label={`Add marketplace image ${index + 1}`}
                  aria-busy={takingUrl === url}
                  onClick={() => void takeMarketplaceImage(url)}
                >
                  <Thumbnail url={url} alt="" />
                  <span className="block py-1 text-xs text-stone-700">{takingUrl === url ? 'Adding…' : 'Add'}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="mt-4">
        <h4 id={`${id}-current`} className="text-sm font-medium text-stone-800">
          Current Images
        </h4>
        {images.length === 0 && !showSkuPosition ? <p className="mt-2 text-sm text-stone-600">No images yet.</p> : null}
        <p id={`${id}-order-hint`} className="mt-1 text-xs text-stone-600">
          Drag to reorder, or use Move earlier and Move later.
        </p>
        <ol
          ref={grid}
          aria-labelledby={`${id}-current`}
          aria-describedby={`${id}-order-hint`}
          className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4"
        >
          {items.map((item, index) => {
            const key = itemKey(item);
            const label = itemLabel(item, index);
            return (
              <li
                key={key}
                draggable={renaming?.url !== key}
                onDragStart={(event) => {
                  dragFrom.current = index;
                  setDragging(index);
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', key);
                }}
                onDragOver={(event) => {
                  if (dragFrom.current === null) return;
                  event.preventDefault();
                  event.dataTransfer.dropEffect = 'move';
                  setDropTarget(index);
                }}
                onDrop={(event) => {
                  const from = dragFrom.current;
                  if (from === null) return;
                  event.preventDefault();
                  move(from, index, false);
                  dragFrom.current = null;
                  setDragging(null);
                  setDropTarget(null);
                }}
                onDragEnd={() => {
                  dragFrom.current = null;
                  setDragging(null);
                  setDropTarget(null);
                }}
                className={`flex flex-col rounded-xl border p-2 ${
                  dropTarget === index && dragging !== index ? 'border-sage-700 bg-sage-50' : 'border-sage-100'
                } ${dragging === index ? 'opacity-50' : ''} ${item.kind === 'sku' ? 'bg-amber-50' : ''}`}
              >
                {item.kind === 'sku' ? (
                  <div className="flex aspect-square items-center justify-center rounded-lg border border-dashed border-amber-700 p-2 text-center text-sm font-medium text-amber-900">
                    SKU Position
                  </div>
                ) : (
                  <Thumbnail url={item.url} alt={label} />
                )}
                {item.kind === 'image' && renaming?.url === item.url ? (
                  // Not a form: the manager sits inside the product's form, and forms do not nest.
                  <fieldset
                    className="mt-2 space-y-1"
                    onKeyDown={(event) => {
                      if (event.key === 'Escape') {
                        // The rename closes, not the modal around the manager.
                        event.stopPropagation();
                        closeRename();
                      } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
                        // Enter saves the name instead of submitting the product's form.
                        event.preventDefault();
                        void submitRename();
                      }
                    }}
                  >
                    <legend className="sr-only">Rename {label}</legend>
                    <label htmlFor={`${id}-rename`} className={`${labelStyle} text-xs`}>
                      New name
                    </label>
                    <input
                      ref={renameInput}
                      id={`${id}-rename`}
                      value={renaming.value}
                      maxLength={200}
                      disabled={renaming.busy}
                      aria-invalid={renaming.error ? true : undefined}
                      aria-describedby={renaming.error ? `${id}-rename-error` : undefined}
                      onChange={(event) => setRenaming({ ...renaming, value: event.target.value, error: null })}
                      className={`${input} px-2 py-1 text-xs`}
                    />
                    {renaming.error ? (
                      <p id={`${id}-rename-error`} className="text-xs text-red-800">
                        {renaming.error}
                      </p>
                    ) : null}
                    <div className="flex gap-1">
                      <button
                        type="button"
                        className={`${primaryButton} px-3 py-1 text-xs`}
                        disabled={renaming.busy}
                        onClick={() => void submitRename()}
                      >
                        {renaming.busy ? 'Saving…' : 'Save'}
                      </button>
                      <button type="button" className={smallButton} onClick={() => closeRename()}>
                        Cancel
                      </button>
                    </div>
                  </fieldset>
                ) : (
                  <p className="mt-1 truncate text-xs text-stone-700" title={label}>
                    {item.kind === 'sku'
                      ? 'SKU images appear here'
                      : `${imagePosition(index)}. ${imageDisplayName(item.url)}`}
                  </p>
                )}
                <div className="mt-2 flex flex-wrap gap-1">
                  <button
                    type="button"
                    className={smallButton}
                    data-action="earlier"
                    data-item={key}
                    disabled={index === 0}
                    aria-label={`Move ${label} earlier`}
                    onClick={() => move(index, index - 1, true)}
                  >
                    <span aria-hidden="true">←</span>
                  </button>
                  <button
                    type="button"
                    className={smallButton}
                    data-action="later"
                    data-item={key}
                    disabled={index === items.length - 1}
                    aria-label={`Move ${label} later`}
                    onClick={() => move(index, index + 1, true)}
                  >
                    <span aria-hidden="true">→</span>
                  </button>
                  {item.kind === 'image' ? (
                    <>
                      <button
                        type="button"
                        className={smallButton}
                        data-action="rename"
                        data-item={key}
                        aria-label={`Rename ${label}`}
                        onClick={() =>
                          setRenaming({ url: item.url, value: imageDisplayName(item.url), error: null, busy: false })
                        }
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className={`${smallButton} text-red-800`}
                        aria-label={`Delete ${label}`}
                        onClick={() => removeImage(item.url)}
                      >
                        Delete
                      </button>
                    </>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}

/** What to say when uploads failed: the server's sentence for a refused file (type, size, count), else the spec's. */
function uploadFailure(error: unknown): string {
  if (error instanceof ApiRequestError && [0, 400, 413, 415, 422].includes(error.status) && error.message) {
    return error.message;
  }
  return imageMessages.uploadFailed;
}

/** A thumbnail: the shop's 400 px rendition when there is one; the placeholder when it fails to load. */
function Thumbnail({ url, alt }: { url: string; alt: string }) {
  return (
    <img
      src={renditionUrl(url, 400)}
      alt={alt}
      loading="lazy"
      decoding="async"
      className="aspect-square w-full rounded-lg bg-stone-50 object-cover"
      onError={(event) => {
        const image = event.currentTarget;
        if (!image.src.endsWith(PLACEHOLDER_IMAGE)) image.src = PLACEHOLDER_IMAGE;
      }}
    />
  );
}

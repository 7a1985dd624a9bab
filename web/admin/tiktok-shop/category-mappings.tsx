import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type {
  CategoryMapping,
  ChannelCategory,
  getSocialShopCategoryMappings,
  saveSocialShopCategoryMapping,
} from '#common/contracts/admin/social-shop.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import type { Flash } from '../ui/flash-message.tsx';
import { AdminTable, PlainHeaders, tableStyles } from '../ui/list-controls.tsx';
import { input, smallButton } from '../ui/styles.ts';
import { mappingSourceText } from './tiktok-shop-rules.ts';

const mappingsPath: (typeof getSocialShopCategoryMappings)['path'] = '/api/tiktok-shop/category-mappings';
export const mappingsKey = (shopId: string) => ['admin', 'tiktok-shop', 'category-mappings', shopId];
const NOT_MAPPED = '';

/**
 * Which channel category each of our categories is listed under in the selected shop: the
 * recommendation a sync stored, or the owner's choice; "Not mapped" lets the next sync ask again.
 */
export function CategoryMappings({
  shopId,
  show,
}: {
  shopId: string;
  show: (kind: Flash['kind'], text: string) => void;
}) {
  const queryClient = useQueryClient();
  const mappings = useQuery({
    queryKey: mappingsKey(shopId),
    queryFn: () =>
      api.call<typeof getSocialShopCategoryMappings>({ method: 'GET', path: mappingsPath }, { query: { shopId } }),
  });
  const save = useMutation({
    mutationFn: ({ categoryId, channelCategoryId }: { categoryId: string; channelCategoryId: string | null }) =>
      api.call<typeof saveSocialShopCategoryMapping>(
        { method: 'PUT', path: mappingsPath },
        { body: { shopId, categoryId, channelCategoryId } },
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData<{ mappings: CategoryMapping[]; channelCategories: ChannelCategory[] }>(
        mappingsKey(shopId),
        (current) =>
          current && {
            ...current,
            mappings: current.mappings.map((row) => (row.categoryId === saved.categoryId ? saved : row)),
          },
      );
      show('success', `Category mapping saved for ${saved.categoryName}`);
    },
    onError: (error) => show('error', errorMessage(error, 'Failed to save the category mapping')),
  });

  const rows = mappings.data?.mappings ?? [];
  const status = mappings.isLoading
    ? 'Loading category mappings…'
    : mappings.error
      ? errorMessage(mappings.error, 'Failed to load category mappings')
      : rows.length === 0
        ? 'No categories yet.'
        : null;
  return (
    <section aria-labelledby="tiktok-mapping-heading" className="mt-8">
      <h3 id="tiktok-mapping-heading" className="font-serif text-xl text-sage-900">
        Category mapping
      </h3>
      <p className="mt-1 text-sm text-stone-700">
        The TikTok Shop category each of our categories is listed under in this shop.
      </p>
      <div className="mt-3">
        <AdminTable
          caption="Our categories and their TikTok Shop categories"
          columns={4}
          status={status}
          headers={<PlainHeaders names={['Our category', 'TikTok Shop category', 'Mapping', 'Actions']} />}
        >
          {rows.map((mapping) => (
            <MappingRow
              key={`${mapping.categoryId}-${mapping.channelCategoryId ?? NOT_MAPPED}`}
              mapping={mapping}
              channelCategories={mappings.data?.channelCategories ?? []}
              busy={save.isPending && save.variables?.categoryId === mapping.categoryId}
              onSave={(channelCategoryId) => save.mutate({ categoryId: mapping.categoryId, channelCategoryId })}
            />
          ))}
        </AdminTable>
      </div>
    </section>
  );
}

function MappingRow({
  mapping,
  channelCategories,
  busy,
  onSave,
}: {
  mapping: CategoryMapping;
  channelCategories: readonly ChannelCategory[];
  busy: boolean;
  onSave: (channelCategoryId: string | null) => void;
}) {
  const id = useId();
  const current = mapping.channelCategoryId ?? NOT_MAPPED;
  const [choice, setChoice] = useState(current);
  // The stored category stays choosable even when the channel's list no longer offers it.
  const options =
    mapping.channelCategoryId && !channelCategories.some((category) => category.id === mapping.channelCategoryId)
      ? [
          { id: mapping.channelCategoryId, name: mapping.channelCategoryName ?? mapping.channelCategoryId },
          ...channelCategories,
        ]
      : channelCategories;
  return (
    <tr>
      <th scope="row" className={`${tableStyles.cell} text-left font-medium text-stone-900`}>
        {mapping.categoryName}
      </th>
      <td className={tableStyles.cell}>
        <label htmlFor={id} className="sr-only">
          TikTok Shop category for {mapping.categoryName}
        </label>
        <select id={id} value={choice} onChange={(event) => setChoice(event.target.value)} className={input}>
          <option value={NOT_MAPPED}>Not mapped (use the recommendation)</option>
          {options.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
      </td>
      <td className={tableStyles.cell}>{mappingSourceText[mapping.source ?? 'none']}</td>
      <td className={tableStyles.cell}>
        <button
          type="button"
          className={smallButton}
          disabled={busy || choice === current}
          onClick={() => onSave(choice === NOT_MAPPED ? null : choice)}
          aria-label={`Save the TikTok Shop category for ${mapping.categoryName}`}
        >
          {busy ? 'Saving…' : 'Save'}
        </button>
      </td>
    </tr>
  );
}

import * as z from 'zod/mini';

/*
 * The social-shop calls (back-office spec 7, Social shop; issue 14): the TikTok Shop connection,
 * its shops, the product and stock syncs and the category mapping. Every call needs the
 * uploadProducts permission. Sync runs are background jobs: the POSTs answer the run, with its
 * result once finished (they wait a little for it), and the tab follows it by id.
 */

/** A shop id as the calls take it: the channel's shop id (digits) once ready, our connection id while pending. */
export const ShopId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a shop id'));

export const shopStatuses = ['pending', 'ready'] as const;

/** Spec 3: a connected shop. */
export const SocialShop = z.object({
  shopId: z.string(),
  shopName: z.string(),
  status: z.enum(shopStatuses),
  region: z.string(),
  /** How many shops the authorisation this shop came from covers (0 until Resolve Shops). */
  shopsDiscovered: z.int(),
  createdAt: z.string(),
});
export type SocialShop = z.infer<typeof SocialShop>;

export const getSocialShops = {
  method: 'GET',
  path: '/api/tiktok-shop/shops',
  response: z.object({
    shops: z.array(SocialShop),
    /** The sandbox's seller centre (test orders), when the channel is the sandbox; null with TikTok. */
    sellerCentreUrl: z.nullable(z.string()),
  }),
} as const;

export const getSocialShopAuthUrl = {
  method: 'GET',
  path: '/api/tiktok-shop/auth-url',
  response: z.object({ authUrl: z.string() }),
} as const;

/** The OAuth callback's outcome codes (spec 8, social shop return). */
export const socialShopReturnCodes = ['no_auth_code', 'connection_failed', 'invalid_state'] as const;

export const resolveSocialShops = {
  method: 'POST',
  path: '/api/tiktok-shop/resolve-shops',
  body: z.object({}),
  response: z.object({ shops: z.array(SocialShop), resolved: z.int() }),
} as const;

/** Spec 3: a sync's result. */
export const SyncResult = z.object({
  synced: z.int(),
  failed: z.int(),
  results: z.array(z.object({ title: z.string(), productId: z.string(), tiktokProductId: z.string() })),
  errors: z.array(z.object({ title: z.string(), productId: z.string(), error: z.string() })),
  note: z.string(),
});
export type SyncResult = z.infer<typeof SyncResult>;

export const syncKinds = ['products', 'inventory'] as const;
export const syncStatuses = ['queued', 'running', 'finished', 'failed'] as const;

/** A sync run: its progress while it runs, its result once finished. */
export const SyncRun = z.object({
  syncId: z.string(),
  shopId: z.string(),
  kind: z.enum(syncKinds),
  status: z.enum(syncStatuses),
  /** Products handled so far, of `total`. */
  done: z.int(),
  total: z.int(),
  forceAll: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  /** The spec's result, once the run has finished; the reason when it failed as a whole. */
  result: z.nullable(SyncResult),
  error: z.nullable(z.string()),
});
export type SyncRun = z.infer<typeof SyncRun>;

export const SyncProductsBody = z.object({ shopId: ShopId, forceAll: z.optional(z.boolean()) });
export const SyncInventoryBody = z.object({ shopId: ShopId });

export const syncSocialShopProducts = {
  method: 'POST',
  path: '/api/tiktok-shop/sync-products',
  body: SyncProductsBody,
  response: SyncRun,
} as const;

export const syncSocialShopInventory = {
  method: 'POST',
  path: '/api/tiktok-shop/sync-inventory',
  body: SyncInventoryBody,
  response: SyncRun,
} as const;

export const SyncIdParam = z.object({
  syncId: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a sync id')),
});

export const getSocialShopSync = {
  method: 'GET',
  path: '/api/tiktok-shop/syncs/:syncId',
  params: SyncIdParam,
  response: SyncRun,
} as const;

/** The newest run of each kind for a shop (what the tab shows when it opens). */
export const getSocialShopLatestSyncs = {
  method: 'GET',
  path: '/api/tiktok-shop/syncs',
  query: z.object({ shopId: ShopId }),
  response: z.object({ products: z.nullable(SyncRun), inventory: z.nullable(SyncRun) }),
} as const;

/** One of our categories and the channel category its products are listed under. */
export const CategoryMapping = z.object({
  categoryId: z.string(),
  categoryName: z.string(),
  /** Null: not mapped yet (the next sync asks the channel for a recommendation). */
  channelCategoryId: z.nullable(z.string()),
  channelCategoryName: z.nullable(z.string()),
  /** 'recommended': the channel's recommendation, stored by a sync; 'owner': chosen in the tab. */
  source: z.nullable(z.enum(['recommended', 'owner'])),
});
export type CategoryMapping = z.infer<typeof CategoryMapping>;

export const ChannelCategory = z.object({ id: z.string(), name: z.string() });
export type ChannelCategory = z.infer<typeof ChannelCategory>;

export const getSocialShopCategoryMappings = {
  method: 'GET',
  path: '/api/tiktok-shop/category-mappings',
  query: z.object({ shopId: ShopId }),
  response: z.object({ mappings: z.array(CategoryMapping), channelCategories: z.array(ChannelCategory) }),
} as const;

export const SaveCategoryMappingBody = z.object({
  shopId: ShopId,
  categoryId: z.string().check(z.minLength(1), z.maxLength(64)),
  /** Null removes the mapping (the next sync asks for a recommendation again). */
  channelCategoryId: z.nullable(z.string().check(z.regex(/^[0-9A-Za-z_-]{1,64}$/, 'must be a channel category id'))),
});

export const saveSocialShopCategoryMapping = {
  method: 'PUT',
  path: '/api/tiktok-shop/category-mappings',
  body: SaveCategoryMappingBody,
  response: CategoryMapping,
} as const;

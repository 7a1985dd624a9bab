import type { ComponentType } from 'react';
import type { SessionUser } from '#common/contracts/accounts.ts';
import type { AdminTab } from '#common/permissions.ts';

/** What every tab receives: the signed-in admin (the server checks each call anyway). */
export type TabProps = { user: SessionUser };
type TabModule = { default: ComponentType<TabProps> };

/** The tab bar's labels, in the spec's order (section 2). */
export const tabLabels: Record<AdminTab, string> = {
  dashboard: 'Dashboard',
  products: 'Products',
  users: 'Users',
  orders: 'Orders',
  reviews: 'Reviews',
  newsletter: 'Newsletter',
  sales: 'Sales',
  'tiktok-shop': 'TikTok Shop',
  'admin-management': 'Admin Management',
  settings: 'Settings',
};

/**
 * The tabs built so far, each its own lazily loaded module (its code loads when the tab opens):
 * adding a tab is one line here. Tabs not listed are not offered.
 */
export const tabModules: Partial<Record<AdminTab, () => Promise<TabModule>>> = {
  dashboard: () => import('./dashboard/dashboard-tab.tsx'),
  products: () => import('./products/products-tab.tsx'),
  users: () => import('./users/users-tab.tsx'),
  orders: () => import('./orders/orders-tab.tsx'),
  reviews: () => import('./reviews/reviews-tab.tsx'),
  newsletter: () => import('./newsletter/newsletter-tab.tsx'),
  sales: () => import('./sales/sales-tab.tsx'),
  'tiktok-shop': () => import('./tiktok-shop/tiktok-shop-tab.tsx'),
  'admin-management': () => import('./admin-management/admin-management-tab.tsx'),
  settings: () => import('./settings/settings-tab.tsx'),
};

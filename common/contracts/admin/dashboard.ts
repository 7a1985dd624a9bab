import * as z from 'zod/mini';
import { DEFAULT_DASHBOARD_RANGE, dashboardRanges, seriesGranularities } from '../../dashboard-rules.ts';
import { OrderStatus } from '../orders.ts';

/** Spec 7: GET /api/admin/dashboard?timeRange=…, 'all' when not given. */
export const DashboardQuery = z.object({
  timeRange: z._default(z.enum(dashboardRanges), DEFAULT_DASHBOARD_RANGE),
});
export type DashboardQuery = z.infer<typeof DashboardQuery>;

/**
 * Spec 3, Dashboard data: the range's figures. Money is in integer cents; orders count when paid
 * (not pending, not cancelled), placed in the range. Rates are percentages.
 */
export const DashboardStats = z.object({
  /** Revenue minus the marketplace costs. */
  totalProfit: z.int(),
  /** What paid orders brought in, sales tax excluded: goods after discounts, shipping and fees charged. */
  totalRevenue: z.int(),
  /** What the marketplace charges for the items sold: each line's unit cost × quantity. */
  totalAliExpressCosts: z.int(),
  /** Paid orders, every channel. */
  totalOrders: z.int(),
  /** Distinct visitors per UTC day, summed over the range's days (a visitor is known for one day only). */
  totalVisitors: z.int(),
  totalPageViews: z.int(),
  /** Paid web-shop orders ÷ visitors, percent with two decimals. */
  avgConversionRate: z.number(),
  /** Accounts created in the range (every account for 'all'). */
  totalUsers: z.int(),
  /** Reviews written in the range, whatever their moderation status (every review for 'all'). */
  totalReviews: z.int(),
  /** Mean session length (first to last page view) in minutes, two decimals. */
  averageSessionDuration: z.number(),
  /** The most viewed pages (top 5), path → views, most viewed first. */
  pageViewsByPage: z.record(z.string(), z.int()),
  /** Spec 9: profit ÷ revenue, a whole percent. */
  profitMargin: z.int(),
  /** Spec 9: single-page sessions ÷ sessions, percent with one decimal. */
  bounceRate: z.number(),
  /** Browser sessions (a tab's visit; one crossing midnight UTC counts on each day). */
  totalSessions: z.int(),
  /** Sessions that viewed one page only (the bounces). */
  singlePageSessions: z.int(),
});
export type DashboardStats = z.infer<typeof DashboardStats>;

/** An order of the recent orders table, with the columns the orders tab shows. */
export const DashboardOrder = z.object({
  id: z.string(),
  orderNumber: z.string(),
  customerInfo: z.object({ name: z.string(), email: z.string() }),
  /** Cents. */
  total: z.int(),
  status: OrderStatus,
  createdAt: z.string(),
  /** Units ordered (the lines' quantities summed). */
  itemCount: z.int(),
});
export type DashboardOrder = z.infer<typeof DashboardOrder>;

/**
 * One point of the range's time series (the Profit and Revenue and the Visitor Analytics
 * modals): the bucket that starts at `date` (ISO, UTC), with the same rules as the stats.
 */
export const DashboardPoint = z.object({
  date: z.string(),
  revenue: z.int(),
  costs: z.int(),
  profit: z.int(),
  orders: z.int(),
  pageViews: z.int(),
  visitors: z.int(),
});
export type DashboardPoint = z.infer<typeof DashboardPoint>;

export const Dashboard = z.object({
  /** When the figures were computed (ISO). */
  timestamp: z.string(),
  timeRange: z.enum(dashboardRanges),
  /**
   * What the figures cover: from `from` (ISO; null for 'all') to the time of `timestamp`, and the
   * length of each series point (24h by hour, 7d to 90d by day, 1y by week, 'all' as its history needs).
   */
  range: z.object({ from: z.nullable(z.string()), granularity: z.enum(seriesGranularities) }),
  stats: DashboardStats,
  /** The range's latest orders (10), newest first, whatever their status. */
  recentOrders: z.array(DashboardOrder),
  /** Every bucket of the range, oldest first, empty ones as zeros. */
  series: z.array(DashboardPoint),
});
export type Dashboard = z.infer<typeof Dashboard>;

/** The dashboard tab's data (every admin: spec 6, tabs visible to all admins). */
export const getDashboard = {
  method: 'GET',
  path: '/api/admin/dashboard',
  query: DashboardQuery,
  response: Dashboard,
} as const;

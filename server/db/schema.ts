/** Every table of the shop, for the Drizzle client, relational queries and drizzle-kit. */
export * from '#server/adapters/email/outbox.tables.ts';
export * from '#server/adapters/payments/local-test-processor.tables.ts';
export * from '#server/features/accounts/accounts.tables.ts';
export * from '#server/features/analytics/analytics.tables.ts';
export * from '#server/features/audit/audit.tables.ts';
export * from '#server/features/catalog/catalog.tables.ts';
export * from '#server/features/checkout/checkout.tables.ts';
export * from '#server/features/dashboard/dashboard.tables.ts';
export * from '#server/features/events/events.tables.ts';
export * from '#server/features/fulfilment/fulfilment.tables.ts';
export * from '#server/features/marketing/marketing.tables.ts';
export * from '#server/features/newsletter/newsletter.tables.ts';
export * from '#server/features/orders/orders.tables.ts';
export * from '#server/features/reviews/reviews.tables.ts';
export * from '#server/features/settings/settings.tables.ts';
export * from '#server/features/social-shop/social-shop.tables.ts';
export * from '#server/features/tracking/tracking.tables.ts';

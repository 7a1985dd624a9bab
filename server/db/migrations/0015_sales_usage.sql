ALTER TABLE "orders" ADD COLUMN "sale_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_sale_ids_idx" ON "orders" USING gin ("sale_ids" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "orders_discount_codes_idx" ON "orders" USING gin ("discount_codes" jsonb_path_ops);
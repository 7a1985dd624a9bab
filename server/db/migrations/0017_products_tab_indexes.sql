CREATE INDEX "products_title_sort_idx" ON "products" USING btree (lower("title") COLLATE "C","id");--> statement-breakpoint
CREATE INDEX "products_price_id_idx" ON "products" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "products_stock_id_idx" ON "products" USING btree ("stock","id");--> statement-breakpoint
CREATE INDEX "products_sales_id_idx" ON "products" USING btree ("sales","id");--> statement-breakpoint
CREATE INDEX "products_created_id_idx" ON "products" USING btree ("created_at","id");
CREATE INDEX "reviews_rating_created_idx" ON "reviews" USING btree ("rating","created_at","id");--> statement-breakpoint
CREATE INDEX "reviews_helpful_created_idx" ON "reviews" USING btree ("helpful_count","created_at","id");--> statement-breakpoint
CREATE INDEX "reviews_content_trgm_idx" ON "reviews" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "reviews_title_trgm_idx" ON "reviews" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "reviews_customer_name_trgm_idx" ON "reviews" USING gin ("customer_name" gin_trgm_ops);
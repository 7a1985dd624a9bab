CREATE INDEX "users_username_sort_idx" ON "users" USING btree (lower("username") COLLATE "C","id");--> statement-breakpoint
CREATE INDEX "users_email_sort_idx" ON "users" USING btree (lower("email") COLLATE "C","id");--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
-- The users tab searches one expression, lower(username || ' ' || email), through one trigram
-- index: the two indexes it replaces (one a column) were two reads of each search, OR-ed.
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (lower("username" || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
DROP INDEX "users_username_trgm_idx";--> statement-breakpoint
DROP INDEX "users_email_trgm_idx";--> statement-breakpoint
-- The expression's statistics come with the next ANALYZE: until then the planner guessed a common
-- word rare and counted its matches through the whole index (27 ms a search of "example.com" at
-- 200,000 users, where reading the table until the count's cap took 0.4 ms).
ANALYZE "users";

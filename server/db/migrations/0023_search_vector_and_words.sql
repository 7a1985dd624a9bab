CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_search_trgm_idx";--> statement-breakpoint
DROP INDEX "products_search_fts_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "products"."search_text")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_search_vector_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
-- The words of new and changed search texts join the vocabulary, once per statement. Words are
-- never taken out: one no product has any more only widens a typo's candidates, which the
-- products' index then finds nothing for. Orders update products too (stock, sales): those rows'
-- texts are unchanged and skipped.
CREATE FUNCTION "products_keep_search_words"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "search_words" ("word")
		SELECT DISTINCT w FROM new_rows n, regexp_split_to_table(n.search_text, '[^[:alnum:]]+') AS w
		WHERE w <> '' ORDER BY w
		ON CONFLICT DO NOTHING;
	ELSE
		INSERT INTO "search_words" ("word")
		SELECT DISTINCT w FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.search_text IS DISTINCT FROM n.search_text,
			regexp_split_to_table(n.search_text, '[^[:alnum:]]+') AS w
		WHERE w <> '' ORDER BY w
		ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "products_search_words_insert" AFTER INSERT ON "products"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "products_keep_search_words"();
--> statement-breakpoint
CREATE TRIGGER "products_search_words_update" AFTER UPDATE ON "products"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "products_keep_search_words"();
--> statement-breakpoint
INSERT INTO "search_words" ("word")
SELECT DISTINCT w FROM "products" p, regexp_split_to_table(p."search_text", '[^[:alnum:]]+') AS w
WHERE w <> '';

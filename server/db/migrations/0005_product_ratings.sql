CREATE TABLE "product_ratings" (
	"product_id" text PRIMARY KEY NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"rating_sum" numeric(12, 1) DEFAULT 0 NOT NULL,
	"star1" integer DEFAULT 0 NOT NULL,
	"star2" integer DEFAULT 0 NOT NULL,
	"star3" integer DEFAULT 0 NOT NULL,
	"star4" integer DEFAULT 0 NOT NULL,
	"star5" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_ratings" ADD CONSTRAINT "product_ratings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_product_created_idx" ON "reviews" USING btree ("product_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reviews_product_rating_idx" ON "reviews" USING btree ("product_id","rating","created_at","id");--> statement-breakpoint
CREATE INDEX "reviews_product_helpful_idx" ON "reviews" USING btree ("product_id","helpful_count","created_at","id");--> statement-breakpoint
DROP INDEX "reviews_product_status_created_idx";--> statement-breakpoint
DROP INDEX "reviews_product_status_rating_idx";--> statement-breakpoint
DROP INDEX "reviews_product_status_helpful_idx";--> statement-breakpoint
-- Keeps each product's public-review ratings (count, sum, stars) as reviews are written: once per
-- statement, from the rows it changed (a bulk import is one aggregate, a single review one row).
-- Public means approved: the old rows of a statement count -1, the new ones +1. The star is
-- common/catalog-rules.ts ratingBucket. Products being deleted (and their ratings with them) are
-- skipped, so their reviews' removal does not write their ratings again.
CREATE FUNCTION "reviews_keep_product_ratings"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	approved_new text := 'SELECT product_id, rating, 1 AS sign FROM new_rows WHERE moderation_status = ''approved''';
	approved_old text := 'SELECT product_id, rating, -1 AS sign FROM old_rows WHERE moderation_status = ''approved''';
	changes text := CASE TG_OP
		WHEN 'INSERT' THEN approved_new
		WHEN 'DELETE' THEN approved_old
		ELSE approved_new || ' UNION ALL ' || approved_old
	END;
BEGIN
	EXECUTE format($sql$
		INSERT INTO "product_ratings" AS r ("product_id", "review_count", "rating_sum", "star1", "star2", "star3", "star4", "star5")
		SELECT product_id, sum(sign), sum(sign * rating),
			coalesce(sum(sign) FILTER (WHERE star = 1), 0),
			coalesce(sum(sign) FILTER (WHERE star = 2), 0),
			coalesce(sum(sign) FILTER (WHERE star = 3), 0),
			coalesce(sum(sign) FILTER (WHERE star = 4), 0),
			coalesce(sum(sign) FILTER (WHERE star = 5), 0)
		FROM (SELECT c.*, least(5, greatest(1, round(c.rating)))::int AS star FROM (%s) c) c
		WHERE EXISTS (SELECT 1 FROM "products" p WHERE p."id" = c.product_id)
		GROUP BY product_id
		ON CONFLICT ("product_id") DO UPDATE SET
			"review_count" = r."review_count" + EXCLUDED."review_count",
			"rating_sum" = r."rating_sum" + EXCLUDED."rating_sum",
			"star1" = r."star1" + EXCLUDED."star1",
			"star2" = r."star2" + EXCLUDED."star2",
			"star3" = r."star3" + EXCLUDED."star3",
			"star4" = r."star4" + EXCLUDED."star4",
			"star5" = r."star5" + EXCLUDED."star5"
	$sql$, changes);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "reviews_product_ratings_insert" AFTER INSERT ON "reviews"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "reviews_keep_product_ratings"();
--> statement-breakpoint
CREATE TRIGGER "reviews_product_ratings_update" AFTER UPDATE ON "reviews"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "reviews_keep_product_ratings"();
--> statement-breakpoint
CREATE TRIGGER "reviews_product_ratings_delete" AFTER DELETE ON "reviews"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "reviews_keep_product_ratings"();
--> statement-breakpoint
INSERT INTO "product_ratings" ("product_id", "review_count", "rating_sum", "star1", "star2", "star3", "star4", "star5")
SELECT "product_id", count(*), sum("rating"),
	count(*) FILTER (WHERE least(5, greatest(1, round("rating"))) = 1),
	count(*) FILTER (WHERE least(5, greatest(1, round("rating"))) = 2),
	count(*) FILTER (WHERE least(5, greatest(1, round("rating"))) = 3),
	count(*) FILTER (WHERE least(5, greatest(1, round("rating"))) = 4),
	count(*) FILTER (WHERE least(5, greatest(1, round("rating"))) = 5)
FROM "reviews" WHERE "moderation_status" = 'approved' GROUP BY "product_id";

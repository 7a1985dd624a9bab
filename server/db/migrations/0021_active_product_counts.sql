CREATE TABLE "active_product_counts" (
	"scope" text PRIMARY KEY NOT NULL,
	"products" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The statement that adds each (scope, change) row of a query to active_product_counts: 'all' and
-- each category of a product that became active (+1) or stopped being active (-1). Run by the
-- triggers themselves (only they see their transition tables). In scope order, so that two
-- transactions touching the same rows lock them in one order and never deadlock.
CREATE FUNCTION "active_product_counts_sql"(changes text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT format($sql$
		INSERT INTO "active_product_counts" AS c ("scope", "products")
		SELECT scope, sum(change) FROM (%s) s GROUP BY scope HAVING sum(change) <> 0 ORDER BY scope
		ON CONFLICT ("scope") DO UPDATE SET "products" = c."products" + EXCLUDED."products"
	$sql$, changes)
$$;
--> statement-breakpoint
-- Products inserted or updated: once per statement, from the rows whose active-ness changed. A new
-- product has no categories yet; a changed one counts in 'all' and in each of its categories.
CREATE FUNCTION "products_keep_active_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	changed text := CASE TG_OP
		WHEN 'INSERT' THEN 'SELECT id, 1 AS change FROM new_rows WHERE status = ''active'''
		ELSE 'SELECT n.id, CASE WHEN n.status = ''active'' THEN 1 ELSE -1 END AS change
			FROM new_rows n JOIN old_rows o ON o.id = n.id
			WHERE (n.status = ''active'') <> (o.status = ''active'')'
	END;
BEGIN
	EXECUTE "active_product_counts_sql"(format(
		'SELECT ''all'' AS scope, change FROM (%1$s) p
		UNION ALL SELECT pc.category_id, p.change FROM (%1$s) p JOIN "product_categories" pc ON pc.product_id = p.id',
		changed));
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "products_active_counts_insert" AFTER INSERT ON "products"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "products_keep_active_counts"();
--> statement-breakpoint
CREATE TRIGGER "products_active_counts_update" AFTER UPDATE ON "products"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "products_keep_active_counts"();
--> statement-breakpoint
-- A product deleted: counted out before its category rows go with it (the cascade runs after the
-- row is gone, when the categories' trigger can no longer tell whether it was active).
CREATE FUNCTION "products_forget_active_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF OLD.status = 'active' THEN
		EXECUTE "active_product_counts_sql"(format(
			'SELECT ''all'' AS scope, -1 AS change
			UNION ALL SELECT category_id, -1 FROM "product_categories" WHERE product_id = %L',
			OLD.id));
	END IF;
	RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER "products_active_counts_delete" BEFORE DELETE ON "products"
FOR EACH ROW EXECUTE FUNCTION "products_forget_active_counts"();
--> statement-breakpoint
-- Category rows added, moved or removed: each counts for its category while its product is active.
-- The product row is share-locked, so a concurrent change of its status either waits for this
-- statement or is waited for and then read as committed: neither side misses the other.
CREATE FUNCTION "product_categories_keep_active_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	of_active text := 'SELECT r.category_id AS scope, %s AS change FROM %s r
		JOIN (SELECT id FROM "products" WHERE status = ''active'' AND id IN (SELECT product_id FROM %2$s) FOR SHARE) p
		ON p.id = r.product_id';
	added text := format(of_active, '1', 'new_rows');
	removed text := format(of_active, '-1', 'old_rows');
BEGIN
	EXECUTE "active_product_counts_sql"(CASE TG_OP
		WHEN 'INSERT' THEN added
		WHEN 'DELETE' THEN removed
		ELSE added || ' UNION ALL ' || removed
	END);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "product_categories_active_counts_insert" AFTER INSERT ON "product_categories"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "product_categories_keep_active_counts"();
--> statement-breakpoint
CREATE TRIGGER "product_categories_active_counts_update" AFTER UPDATE ON "product_categories"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "product_categories_keep_active_counts"();
--> statement-breakpoint
CREATE TRIGGER "product_categories_active_counts_delete" AFTER DELETE ON "product_categories"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "product_categories_keep_active_counts"();
--> statement-breakpoint
INSERT INTO "active_product_counts" ("scope", "products")
SELECT 'all', count(*) FROM "products" WHERE "status" = 'active'
UNION ALL
SELECT pc."category_id", count(*) FROM "product_categories" pc
JOIN "products" p ON p."id" = pc."product_id" AND p."status" = 'active'
GROUP BY pc."category_id";

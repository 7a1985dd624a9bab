CREATE TABLE "row_counts" (
	"scope" text NOT NULL,
	"shard" smallint NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "row_counts_scope_shard_pk" PRIMARY KEY("scope","shard")
);
--> statement-breakpoint
-- Keeps row_counts for the table it is on: the table's name counts every row, name:status the
-- rows of each status (TG_ARGV[0], the status column, when the table has one). Once per
-- statement, into the shard of the transaction. Every statement that changes a count also writes
-- the table's own scope, and writes it first (it sorts first): two transactions in one shard
-- then queue at that row and never hold each other's rows crosswise (no deadlock).
CREATE FUNCTION "keep_row_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	status_column text := TG_ARGV[0];
	of_rows text := CASE WHEN status_column IS NULL
		THEN 'SELECT NULL::text AS status, %s AS change FROM %s'
		ELSE format('SELECT %I::text AS status, %%s AS change FROM %%s', status_column) END;
	changes text := CASE TG_OP
		WHEN 'INSERT' THEN format(of_rows, '1', 'new_rows')
		WHEN 'DELETE' THEN format(of_rows, '-1', 'old_rows')
		ELSE format(of_rows, '1', 'new_rows') || ' UNION ALL ' || format(of_rows, '-1', 'old_rows') END;
	status_changed boolean;
BEGIN
	IF TG_OP = 'UPDATE' THEN
		EXECUTE format('SELECT EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.%1$I IS DISTINCT FROM o.%1$I)', status_column)
		INTO status_changed;
		IF NOT status_changed THEN RETURN NULL; END IF;
	END IF;
	EXECUTE format($sql$
		INSERT INTO "row_counts" AS c ("scope", "shard", "rows")
		SELECT scope, %s, sum(change) FROM (
			SELECT %L AS scope, change FROM (%s) t
			UNION ALL
			SELECT %L || ':' || status, change FROM (%s) t WHERE status IS NOT NULL
		) s
		GROUP BY scope HAVING sum(change) <> 0 OR scope = %L ORDER BY scope
		ON CONFLICT ("scope", "shard") DO UPDATE SET "rows" = c."rows" + EXCLUDED."rows"
	$sql$, (txid_current() % 8)::smallint, TG_TABLE_NAME, changes, TG_TABLE_NAME, changes, TG_TABLE_NAME);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_row_counts_insert" AFTER INSERT ON "orders"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"('status');
--> statement-breakpoint
CREATE TRIGGER "orders_row_counts_update" AFTER UPDATE ON "orders"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"('status');
--> statement-breakpoint
CREATE TRIGGER "orders_row_counts_delete" AFTER DELETE ON "orders"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"('status');
--> statement-breakpoint
CREATE TRIGGER "reviews_row_counts_insert" AFTER INSERT ON "reviews"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"('moderation_status');
--> statement-breakpoint
CREATE TRIGGER "reviews_row_counts_update" AFTER UPDATE ON "reviews"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"('moderation_status');
--> statement-breakpoint
CREATE TRIGGER "reviews_row_counts_delete" AFTER DELETE ON "reviews"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"('moderation_status');
--> statement-breakpoint
CREATE TRIGGER "users_row_counts_insert" AFTER INSERT ON "users"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"();
--> statement-breakpoint
CREATE TRIGGER "users_row_counts_delete" AFTER DELETE ON "users"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"();
--> statement-breakpoint
CREATE TRIGGER "products_row_counts_insert" AFTER INSERT ON "products"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"();
--> statement-breakpoint
CREATE TRIGGER "products_row_counts_delete" AFTER DELETE ON "products"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "keep_row_counts"();
--> statement-breakpoint
INSERT INTO "row_counts" ("scope", "shard", "rows")
SELECT 'orders', 0, count(*) FROM "orders"
UNION ALL SELECT 'orders:' || "status", 0, count(*) FROM "orders" GROUP BY "status"
UNION ALL SELECT 'reviews', 0, count(*) FROM "reviews"
UNION ALL SELECT 'reviews:' || "moderation_status", 0, count(*) FROM "reviews" GROUP BY "moderation_status"
UNION ALL SELECT 'users', 0, count(*) FROM "users"
UNION ALL SELECT 'products', 0, count(*) FROM "products";

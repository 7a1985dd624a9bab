CREATE TABLE "order_days" (
	"day" date NOT NULL,
	"channel" text NOT NULL,
	"orders" integer NOT NULL,
	"revenue" bigint NOT NULL,
	"costs" bigint NOT NULL,
	CONSTRAINT "order_days_day_channel_pk" PRIMARY KEY("day","channel")
);
--> statement-breakpoint
-- IF NOT EXISTS: an earlier draft of this migration created it on some development databases.
CREATE TABLE IF NOT EXISTS "page_view_month_paths" (
	"month" date NOT NULL,
	"path" text NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "page_view_month_paths_month_path_pk" PRIMARY KEY("month","path")
);
--> statement-breakpoint
DROP INDEX "orders_paid_created_idx";--> statement-breakpoint
-- Days rolled up before this table existed count in their month too.
INSERT INTO "page_view_month_paths" ("month", "path", "views")
SELECT date_trunc('month', "day"::timestamp)::date, "path", sum("views")::int FROM "page_view_day_paths" GROUP BY 1, 2
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Keeps each UTC day's paid orders per channel (count, revenue = total - tax, marketplace costs)
-- as orders are written: once per statement, from the rows it changed. Paid is the statuses of
-- server/features/orders/order-status.ts paidStatuses (not pending, not cancelled): the old rows
-- of a statement count -1, the new ones +1, and a change that moves no sum (a tracking number,
-- a move between paid statuses) writes nothing.
CREATE FUNCTION "orders_keep_order_days"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	paid_new text := 'SELECT created_at, channel, total - tax AS revenue, supplier_cost, 1 AS sign FROM new_rows WHERE status IN (''processing'', ''shipped'', ''delivered'', ''completed'')';
	paid_old text := 'SELECT created_at, channel, total - tax AS revenue, supplier_cost, -1 AS sign FROM old_rows WHERE status IN (''processing'', ''shipped'', ''delivered'', ''completed'')';
	changes text := CASE TG_OP
		WHEN 'INSERT' THEN paid_new
		WHEN 'DELETE' THEN paid_old
		ELSE paid_new || ' UNION ALL ' || paid_old
	END;
BEGIN
	EXECUTE format($sql$
		INSERT INTO "order_days" AS d ("day", "channel", "orders", "revenue", "costs")
		SELECT (created_at AT TIME ZONE 'UTC')::date, channel, sum(sign), sum(sign * revenue), sum(sign * supplier_cost)
		FROM (%s) c
		GROUP BY 1, 2
		HAVING sum(sign) <> 0 OR sum(sign * revenue) <> 0 OR sum(sign * supplier_cost) <> 0
		ON CONFLICT ("day", "channel") DO UPDATE SET
			"orders" = d."orders" + EXCLUDED."orders",
			"revenue" = d."revenue" + EXCLUDED."revenue",
			"costs" = d."costs" + EXCLUDED."costs"
	$sql$, changes);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_order_days_insert" AFTER INSERT ON "orders"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "orders_keep_order_days"();
--> statement-breakpoint
CREATE TRIGGER "orders_order_days_update" AFTER UPDATE ON "orders"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "orders_keep_order_days"();
--> statement-breakpoint
CREATE TRIGGER "orders_order_days_delete" AFTER DELETE ON "orders"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "orders_keep_order_days"();
--> statement-breakpoint
INSERT INTO "order_days" ("day", "channel", "orders", "revenue", "costs")
SELECT ("created_at" AT TIME ZONE 'UTC')::date, "channel", count(*), sum("total" - "tax"), sum("supplier_cost")
FROM "orders" WHERE "status" IN ('processing', 'shipped', 'delivered', 'completed') GROUP BY 1, 2;

CREATE TABLE "product_units_by_day" (
	"day" date NOT NULL,
	"product_id" text NOT NULL,
	"units" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "product_units_by_day_day_idx" ON "product_units_by_day" USING btree ("day");--> statement-breakpoint
-- Appends the units of order lines that start or stop counting: lines inserted into, changed in
-- or deleted from a paid order (once per statement, from the rows it changed; a change that moves
-- no units writes nothing). Paid is the statuses of server/features/orders/order-status.ts
-- paidStatuses. A line of a deleted order is counted out before the order goes (below): by the
-- time the cascade deletes the line, its order can no longer be read.
CREATE FUNCTION "order_items_keep_product_units"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	changes text := CASE TG_OP
		WHEN 'INSERT' THEN 'SELECT order_id, product_id, quantity AS units FROM new_rows'
		WHEN 'DELETE' THEN 'SELECT order_id, product_id, -quantity AS units FROM old_rows'
		ELSE 'SELECT order_id, product_id, quantity AS units FROM new_rows UNION ALL SELECT order_id, product_id, -quantity FROM old_rows'
	END;
BEGIN
	EXECUTE format($sql$
		INSERT INTO "product_units_by_day" ("day", "product_id", "units")
		SELECT (o."created_at" AT TIME ZONE 'UTC')::date, c.product_id, sum(c.units)
		FROM (%s) c JOIN "orders" o ON o."id" = c.order_id
		WHERE o."status" IN ('processing', 'shipped', 'delivered', 'completed') AND c.product_id IS NOT NULL
		GROUP BY 1, 2
		HAVING sum(c.units) <> 0
	$sql$, changes);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "order_items_product_units_insert" AFTER INSERT ON "order_items"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "order_items_keep_product_units"();
--> statement-breakpoint
CREATE TRIGGER "order_items_product_units_update" AFTER UPDATE ON "order_items"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "order_items_keep_product_units"();
--> statement-breakpoint
CREATE TRIGGER "order_items_product_units_delete" AFTER DELETE ON "order_items"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "order_items_keep_product_units"();
--> statement-breakpoint
-- An order that becomes paid counts its lines in, one that stops being paid counts them out (on
-- its old day and with its old status, should its date change too). A new order has no lines
-- yet: they count as they are inserted.
CREATE FUNCTION "orders_keep_product_units"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "product_units_by_day" ("day", "product_id", "units")
	SELECT (c.created_at AT TIME ZONE 'UTC')::date, i."product_id", sum(c.sign * i."quantity")
	FROM (
		SELECT n."id", n."created_at", 1 AS sign FROM new_rows n JOIN old_rows o ON o."id" = n."id"
		WHERE n."status" IN ('processing', 'shipped', 'delivered', 'completed')
			AND (o."status" NOT IN ('processing', 'shipped', 'delivered', 'completed') OR o."created_at" <> n."created_at")
		UNION ALL
		SELECT o."id", o."created_at", -1 FROM new_rows n JOIN old_rows o ON o."id" = n."id"
		WHERE o."status" IN ('processing', 'shipped', 'delivered', 'completed')
			AND (n."status" NOT IN ('processing', 'shipped', 'delivered', 'completed') OR o."created_at" <> n."created_at")
	) c JOIN "order_items" i ON i."order_id" = c.id
	WHERE i."product_id" IS NOT NULL
	GROUP BY 1, 2
	HAVING sum(c.sign * i."quantity") <> 0;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_product_units_update" AFTER UPDATE ON "orders"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "orders_keep_product_units"();
--> statement-breakpoint
CREATE FUNCTION "orders_product_units_out"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF OLD."status" IN ('processing', 'shipped', 'delivered', 'completed') THEN
		INSERT INTO "product_units_by_day" ("day", "product_id", "units")
		SELECT (OLD."created_at" AT TIME ZONE 'UTC')::date, "product_id", -sum("quantity")
		FROM "order_items" WHERE "order_id" = OLD."id" AND "product_id" IS NOT NULL
		GROUP BY "product_id";
	END IF;
	RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_product_units_delete" BEFORE DELETE ON "orders"
FOR EACH ROW EXECUTE FUNCTION "orders_product_units_out"();
--> statement-breakpoint
-- The days the best sellers read (the last 30, today's included), from the orders as they are.
INSERT INTO "product_units_by_day" ("day", "product_id", "units")
SELECT (o."created_at" AT TIME ZONE 'UTC')::date, i."product_id", sum(i."quantity")
FROM "orders" o JOIN "order_items" i ON i."order_id" = o."id"
WHERE o."status" IN ('processing', 'shipped', 'delivered', 'completed') AND i."product_id" IS NOT NULL
	AND o."created_at" >= (((now() AT TIME ZONE 'UTC')::date - 30)::timestamp AT TIME ZONE 'UTC')
GROUP BY 1, 2;

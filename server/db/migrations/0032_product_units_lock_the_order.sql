-- Lines written while their order changes: each side read the other as it was before, so a line
-- inserted into an order being paid was counted by neither (and counted out later), and a line
-- deleted from an order being refunded was counted out by both. The lines' trigger now takes a
-- share lock on their orders first (in id order), which waits for an order's uncommitted change
-- and holds one back until the lines commit; its count, a statement of its own, then reads the
-- orders as they are. The orders' triggers need no change: an order's update or delete holds its
-- row, and the lines' count runs after it.
CREATE OR REPLACE FUNCTION "order_items_keep_product_units"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	changes text := CASE TG_OP
		WHEN 'INSERT' THEN 'SELECT order_id, product_id, quantity AS units FROM new_rows'
		WHEN 'DELETE' THEN 'SELECT order_id, product_id, -quantity AS units FROM old_rows'
		ELSE 'SELECT order_id, product_id, quantity AS units FROM new_rows UNION ALL SELECT order_id, product_id, -quantity FROM old_rows'
	END;
BEGIN
	EXECUTE format($sql$
		SELECT 1 FROM "orders" WHERE "id" IN (SELECT order_id FROM (%s) c) ORDER BY "id" FOR SHARE
	$sql$, changes);
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

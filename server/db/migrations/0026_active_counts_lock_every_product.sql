-- Category rows added, moved or removed: each counts for its category while its product is active.
-- Every product of the changed rows is share-locked, whatever its status, and its status is read
-- from the locked row. A concurrent change of that status then either waits for this statement or
-- is waited for and read as committed: neither side misses the other.
-- Before, only the products already active were locked (and a filter on the status outside the
-- locking subquery is no better: PostgreSQL pushes it down into the subquery, so inactive products
-- go unlocked). A row removed while its product became active was then counted in by the product's
-- trigger and never counted out. So the status only decides the change, in the select list.
CREATE OR REPLACE FUNCTION "product_categories_keep_active_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	of_active text := 'SELECT r.category_id AS scope, CASE WHEN p.status = ''active'' THEN %s ELSE 0 END AS change
		FROM %s r
		JOIN (SELECT id, status FROM "products" WHERE id IN (SELECT product_id FROM %2$s) ORDER BY id FOR SHARE) p
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

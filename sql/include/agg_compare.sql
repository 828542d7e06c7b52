-- Included (\i) by sql/agg_pushdown.sql and agg_decode.sql; each drops
-- agg_compare at its end. (agg_parallel's par_agg also tells a partial
-- from a serial pushdown and keeps enable_sort; topn's topn_compare keeps
-- the rows' order: they are not this function.)
-- 'pushed' and 'same' (or the two results) for one query. Postgres
-- aggregates by hashing (enable_sort off), so the rows of each group reach
-- it in scan order as they reach the pushed aggregate and float sums are
-- equal to the last bit (a sort would reorder rows within groups).
CREATE FUNCTION agg_compare(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	pushed bool := false;
	l text;
	on_rows text;
	off_rows text;
BEGIN
	PERFORM set_config('paimon_fdw.enable_aggregate_pushdown', 'on', true);
	PERFORM set_config('enable_sort', 'off', true);
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%Aggregate Pushdown%' THEN pushed := true; END IF;
	END LOOP;
	EXECUTE 'SELECT string_agg(r::text, '';'' ORDER BY r::text) FROM (' || q || ') r' INTO on_rows;
	PERFORM set_config('paimon_fdw.enable_aggregate_pushdown', 'off', true);
	EXECUTE 'SELECT string_agg(r::text, '';'' ORDER BY r::text) FROM (' || q || ') r' INTO off_rows;
	PERFORM set_config('paimon_fdw.enable_aggregate_pushdown', 'on', true);
	PERFORM set_config('enable_sort', 'on', true);
	RETURN CASE WHEN pushed THEN 'pushed' ELSE 'not pushed' END || ', ' ||
		CASE WHEN on_rows IS NOT DISTINCT FROM off_rows THEN 'same'
			 ELSE 'DIFFERENT: ' || coalesce(on_rows, '<none>') || ' <> ' || coalesce(off_rows, '<none>') END;
END $$;

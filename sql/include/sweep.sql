-- Included (\i) by sql/agg_pushdown.sql, agg_parallel.sql and topn.sql;
-- each drops sweep_agg_queries and sweep_run at its end.

-- The aggregates aggs over t, alone and grouped by every key of keys (and
-- by the first two together).
CREATE FUNCTION sweep_agg_queries(t regclass, aggs text[], keys text[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
	qs text[] := '{}';
BEGIN
	qs := qs || format('SELECT count(*), %s FROM %s', array_to_string(aggs, ', '), t);
	FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
		qs := qs || format('SELECT %1$s, count(*), %2$s FROM %3$s GROUP BY %1$s',
						   keys[i], array_to_string(aggs, ', '), t);
	END LOOP;
	IF array_length(keys, 1) >= 2 THEN
		qs := qs || format('SELECT %1$s, %2$s, count(*), %3$s FROM %4$s GROUP BY %2$s, %1$s',
						   keys[1], keys[2], array_to_string(aggs, ', '), t);
	END IF;
	RETURN qs;
END $$;

-- Each query of qs through the function cmp (text -> text, '<how>, same'
-- when the results agree): how many queries, how many whose answer starts
-- with hit, and every one whose results differ.
CREATE FUNCTION sweep_run(qs text[], cmp text, hit text,
						  OUT queries int, OUT hits int, OUT different text)
LANGUAGE plpgsql AS $$
DECLARE
	q text;
	r text;
BEGIN
	queries := 0;
	hits := 0;
	FOREACH q IN ARRAY qs LOOP
		EXECUTE format('SELECT %I($1)', cmp) INTO r USING q;
		queries := queries + 1;
		IF r LIKE hit || '%' THEN hits := hits + 1; END IF;
		IF r NOT LIKE '%, same' THEN
			different := coalesce(different || E'\n', '') || q || ': ' || r;
		END IF;
	END LOOP;
END $$;

-- ORDER BY ... LIMIT n kept on column batches inside paimon_fdw
-- (topn_pushdown.c): every result is compared, row for row and in order,
-- with Postgres' own sort of the same rows (paimon_fdw.enable_topn_pushdown
-- = off): every sortable column, ASC/DESC, NULLS FIRST/LAST, several keys,
-- OFFSET, NULLs, NaN, -0 and infinities, partitions, primary-key tables
-- (merged on read, and read through deletion vectors). Row groups and ORC
-- stripes whose statistics cannot enter the full heap are skipped; Parquet
-- files read without a merge decode the other columns only for the rows
-- whose first key may enter it (late materialization).
-- Tables written at test time by Java Paimon (test/oracle/pushdown/make_tables.py)
-- and the shared corpus.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SET extra_float_digits = 0;
\getenv corpus PAIMON_CORPUS
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
\set wh `pwd`/results/topn_wh
\set out `python3 test/oracle/pushdown/make_tables.py results/topn_wh rg_parquet rg_orc rg_pk rg_mor fl_parquet fl_orc parts dec pg_parquet`
SELECT :'out' AS make_tables;
CREATE SERVER tnw FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'wh');
CREATE SERVER tnpq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SCHEMA tn;
IMPORT FOREIGN SCHEMA "pd" FROM SERVER tnw INTO tn;
IMPORT FOREIGN SCHEMA "parquet_append_table" FROM SERVER tnpq INTO tn;
IMPORT FOREIGN SCHEMA "pk_09" FROM SERVER tnpq INTO tn;
IMPORT FOREIGN SCHEMA "pk_table_partial_update" FROM SERVER tnpq INTO tn;
CREATE SCHEMA tnx;
IMPORT FOREIGN SCHEMA "append_complex_data" FROM SERVER tnpq INTO tnx;
IMPORT FOREIGN SCHEMA "pk_table_nested_type" FROM SERVER tnpq INTO tnx;

-- 'pushed' and 'same' (or both results) for one query: the rows in the
-- order the query returns them, top-N on and off.
-- (Not sql/include/agg_compare.sql: that sorts the rows before comparing.)
CREATE FUNCTION topn_compare(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	pushed bool := false;
	l text;
	on_rows text;
	off_rows text;
BEGIN
	PERFORM set_config('paimon_fdw.enable_topn_pushdown', 'on', true);
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%Top-N Pushdown%' THEN pushed := true; END IF;
	END LOOP;
	-- -0 and 0 are equal to Postgres: their order among themselves is free
	EXECUTE 'SELECT count(*) || '': '' || replace(string_agg(r::text, '';''), ''(-0)'', ''(0)'') FROM (' || q || ') r' INTO on_rows;
	PERFORM set_config('paimon_fdw.enable_topn_pushdown', 'off', true);
	EXECUTE 'SELECT count(*) || '': '' || replace(string_agg(r::text, '';''), ''(-0)'', ''(0)'') FROM (' || q || ') r' INTO off_rows;
	PERFORM set_config('paimon_fdw.enable_topn_pushdown', 'on', true);
	RETURN CASE WHEN pushed THEN 'pushed' ELSE 'not pushed' END || ', ' ||
		CASE WHEN on_rows IS NOT DISTINCT FROM off_rows THEN 'same'
			 ELSE 'DIFFERENT: ' || coalesce(on_rows, '<none>') || ' <> ' || coalesce(off_rows, '<none>') END;
END $$;

\i sql/include/sweep.sql

-- Every sortable column alone (ASC, DESC, NULLS FIRST/LAST, small and
-- large limits, OFFSET), and all of them as keys (first key each in turn,
-- mixed directions): how many queries, how many pushed, which differ.
CREATE FUNCTION topn_sweep(t regclass, OUT queries int, OUT pushed int, OUT different text)
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	cols text[] := '{}';
	qs text[] := '{}';
	dirs text[] := ARRAY['', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST'];
	others text;
BEGIN
	FOR c IN SELECT quote_ident(attname) AS n FROM pg_attribute
			 WHERE attrelid = t AND attnum > 0 AND NOT attisdropped
			   AND atttypid::regtype::text IN ('boolean', 'smallint', 'integer', 'bigint', 'real',
				   'double precision', 'numeric', 'date', 'text', 'timestamp without time zone',
				   'timestamp with time zone')
			 ORDER BY attnum LOOP
		cols := cols || c.n;
	END LOOP;
	FOR i IN 1 .. coalesce(array_length(cols, 1), 0) LOOP
		FOR d IN 1 .. 4 LOOP
			qs := qs || format('SELECT %1$s FROM %2$s ORDER BY %1$s%3$s LIMIT %4$s',
							   cols[i], t, dirs[d], (ARRAY[1, 3, 7, 100000])[d]);
		END LOOP;
		qs := qs || format('SELECT %1$s FROM %2$s ORDER BY %1$s DESC LIMIT 4 OFFSET 3', cols[i], t);
		SELECT string_agg(x || dirs[1 + (o::int % 4)], ', ') INTO others
		FROM unnest(cols) WITH ORDINALITY u(x, o) WHERE o <> i;
		qs := qs || format('SELECT %1$s FROM %2$s ORDER BY %3$s%4$s LIMIT 6',
						   array_to_string(cols, ', '), t, cols[i] || dirs[1 + (i % 4)],
						   coalesce(', ' || others, ''));
	END LOOP;
	SELECT * INTO queries, pushed, different FROM sweep_run(qs, 'topn_compare', 'pushed');
END $$;

SELECT c.oid::regclass AS tbl, s.*
FROM pg_class c, topn_sweep(c.oid) s
WHERE c.relnamespace = 'tn'::regnamespace AND c.relkind = 'f'
ORDER BY c.relname;

-- what EXPLAIN says; floats as Postgres orders them (NaN last ascending)
EXPLAIN (COSTS OFF) SELECT id, x FROM tn.fl_parquet ORDER BY x DESC, id LIMIT 4;
SELECT id, x, y FROM tn.fl_parquet ORDER BY x DESC, id LIMIT 4;
SELECT id, x, y FROM tn.fl_orc ORDER BY y NULLS FIRST, id LIMIT 4;
-- -0 and 0 tie: the second key decides
SELECT id, x FROM tn.fl_parquet WHERE x = 0 ORDER BY x, id DESC LIMIT 2;
-- expressions over the returned columns are computed on the kept rows
-- VERBOSE shows the table's path, which depends on the checkout: left out
CREATE FUNCTION tn.explain_verbose(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    IF l NOT LIKE '%Paimon Path:%' THEN RETURN NEXT l; END IF;
  END LOOP;
END $$;
SELECT * FROM tn.explain_verbose('SELECT id * 2, upper(s) FROM tn.rg_parquet ORDER BY d DESC LIMIT 3');
SELECT id * 2, upper(s) FROM tn.rg_parquet ORDER BY d DESC LIMIT 3;
-- OFFSET: the scan keeps LIMIT + OFFSET rows, Postgres' Limit skips
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet ORDER BY ts DESC LIMIT 2 OFFSET 5;
SELECT id FROM tn.rg_parquet ORDER BY ts DESC LIMIT 2 OFFSET 5;
-- LIMIT 0 and a LIMIT above the row count
SELECT topn_compare('SELECT id FROM tn.rg_parquet ORDER BY id LIMIT 0');
SELECT topn_compare('SELECT p, id FROM tn.parts ORDER BY p DESC, id LIMIT 500');
-- returned columns of any type: bytea, numeric(23,5), timestamp(9) read as
-- microseconds, nested values (jsonb) of a primary-key table
SELECT q, topn_compare(q) FROM (VALUES
  ('SELECT * FROM tnx.append_complex_data ORDER BY f4 DESC, f3, f5 LIMIT 5'),
  ('SELECT f6, f5 FROM tnx.append_complex_data ORDER BY f5 NULLS FIRST, f3 LIMIT 3'),
  ('SELECT * FROM tnx.pk_table_nested_type ORDER BY col0 DESC, "shopId" LIMIT 3')
) v(q);
SELECT * FROM tnx.pk_table_nested_type ORDER BY col0 DESC, "shopId" LIMIT 2;
-- partitions, and a partition column as key
SELECT p, id, name FROM tn.parts ORDER BY name, p DESC, id LIMIT 5;
-- primary-key tables: the merged rows (rg_mor's first 300 ids were updated)
SELECT topn_compare('SELECT id, x, n FROM tn.rg_mor ORDER BY x, id LIMIT 5');
SELECT id, x, n FROM tn.rg_mor ORDER BY n NULLS FIRST, id LIMIT 3;
SELECT topn_compare('SELECT id, x, n FROM tn.rg_pk ORDER BY n DESC NULLS LAST, id LIMIT 5');

-- WHERE clauses the core evaluates exactly: pushed, rows filtered first
SELECT q, topn_compare(q) FROM (VALUES
  ('SELECT id, n FROM tn.rg_parquet WHERE n IS NOT NULL ORDER BY n DESC LIMIT 3'),
  ('SELECT id, x FROM tn.rg_parquet WHERE x > 100 AND id < 2500 ORDER BY x DESC, id LIMIT 3'),
  ('SELECT id, s FROM tn.rg_orc WHERE s LIKE ''k2%'' ORDER BY s DESC LIMIT 3'),
  ('SELECT id FROM tn.rg_parquet WHERE id > 5000 ORDER BY id LIMIT 3')
) v(q);
-- not pushed: an inexact or untranslatable qual, a run-time LIMIT or
-- value, WITH TIES, LIMIT ALL, an expression as key, a collation other
-- than "C", aggregates, DISTINCT, window functions, SRFs, FOR UPDATE
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet WHERE id + 1 > 3 ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet WHERE s LIKE 'k_5%' ORDER BY id LIMIT 3;
PREPARE tnq(int) AS SELECT id FROM tn.rg_parquet ORDER BY id LIMIT $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE tnq(3);
EXECUTE tnq(3);
RESET plan_cache_mode;
DEALLOCATE tnq;
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet ORDER BY g FETCH FIRST 2 ROWS WITH TIES;
SELECT count(*) FROM (SELECT id FROM tn.rg_parquet ORDER BY g FETCH FIRST 2 ROWS WITH TIES) x;
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet ORDER BY id LIMIT ALL;
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet ORDER BY id + 1 LIMIT 3;
EXPLAIN (COSTS OFF) SELECT s FROM tn.rg_parquet ORDER BY s COLLATE "und-x-icu" LIMIT 3;
EXPLAIN (COSTS OFF) SELECT g, count(*) FROM tn.rg_parquet GROUP BY g ORDER BY g LIMIT 3;
EXPLAIN (COSTS OFF) SELECT DISTINCT g FROM tn.rg_parquet ORDER BY g LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id, rank() OVER (ORDER BY id) FROM tn.rg_parquet ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id, generate_series(1, 2) FROM tn.rg_parquet ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet ORDER BY id LIMIT 3 FOR UPDATE;
SET paimon_fdw.enable_topn_pushdown = off;
EXPLAIN (COSTS OFF) SELECT id FROM tn.rg_parquet ORDER BY id LIMIT 3;
RESET paimon_fdw.enable_topn_pushdown;

-- Row groups and stripes the full heap cannot take are skipped: ids are in
-- file order, so ascending only the first part is read; descending every part
-- may hold better rows. Results as without skipping.
CREATE FUNCTION topn_parts(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ '(Row Groups|Stripes|Top-N Pushdown|Top-N Late Materialization):' THEN
      RETURN NEXT trim(line);
    END IF;
  END LOOP;
END $$;
SELECT topn_parts('SELECT id, s FROM tn.rg_parquet ORDER BY id LIMIT 5');
SELECT topn_parts('SELECT id, s FROM tn.rg_parquet ORDER BY dt, id LIMIT 5');
SELECT topn_parts('SELECT id, s FROM tn.rg_parquet ORDER BY ts DESC LIMIT 5');
SELECT topn_parts('SELECT id, s FROM tn.rg_orc ORDER BY m LIMIT 5');
SELECT topn_parts('SELECT id, s FROM tn.rg_pk ORDER BY id LIMIT 5');
-- NULLs first (n is NULL for ids 1000..1999): the first part with NULLs
-- fills the heap with them; with a second key the other parts with NULLs
-- may still enter
SELECT topn_parts('SELECT id, n FROM tn.rg_parquet ORDER BY n NULLS FIRST LIMIT 5');
SELECT topn_parts('SELECT id, n FROM tn.rg_parquet ORDER BY n NULLS FIRST, id DESC LIMIT 5');
SELECT id, n FROM tn.rg_parquet ORDER BY n NULLS FIRST, id LIMIT 3;
SELECT q, topn_compare(q) FROM (VALUES
  ('SELECT id, s FROM tn.rg_parquet ORDER BY id LIMIT 5'),
  ('SELECT id, s FROM tn.rg_orc ORDER BY m LIMIT 5'),
  ('SELECT id, s FROM tn.rg_pk ORDER BY id LIMIT 5'),
  ('SELECT id, n FROM tn.rg_parquet ORDER BY n NULLS FIRST, id LIMIT 5')
) v(q);

-- Late materialization: the first key's column decoded first, the others
-- only for the span of rows of a batch that may enter the full heap.
-- pd.pg_parquet: 20000 rows in one row group (5 batches), u a permutation
-- of the ids, n NULL for every tenth id, cat 'a'/'z' but 'rare' for 20 ids.
SELECT topn_parts('SELECT id, u, s FROM tn.pg_parquet ORDER BY u DESC LIMIT 5');
SELECT id, u, s, cat, n FROM tn.pg_parquet ORDER BY u DESC LIMIT 5;
-- NULLs first: the NULLs enter, other rows are dropped
SELECT topn_parts('SELECT id, n FROM tn.pg_parquet ORDER BY n NULLS FIRST, id LIMIT 3');
SELECT id, n FROM tn.pg_parquet ORDER BY n NULLS FIRST, id LIMIT 3;
-- the first key ties in most rows: a later key decides among them
SELECT topn_parts('SELECT id, cat, u FROM tn.pg_parquet ORDER BY cat DESC, u LIMIT 3');
SELECT id, cat, u FROM tn.pg_parquet ORDER BY cat DESC, u LIMIT 3;
-- with the WHERE clause's own late filter
SELECT topn_parts('SELECT id, u, cat FROM tn.pg_parquet WHERE cat = ''rare'' ORDER BY u DESC LIMIT 3');
SELECT q, topn_compare(q) FROM (VALUES
  ('SELECT * FROM tn.pg_parquet ORDER BY u DESC LIMIT 5'),
  ('SELECT * FROM tn.pg_parquet ORDER BY u LIMIT 100'),
  ('SELECT * FROM tn.pg_parquet ORDER BY u DESC LIMIT 3 OFFSET 4000'),
  ('SELECT * FROM tn.pg_parquet ORDER BY n NULLS FIRST, id DESC LIMIT 2005'),
  ('SELECT * FROM tn.pg_parquet ORDER BY n DESC NULLS LAST, u LIMIT 7'),
  ('SELECT * FROM tn.pg_parquet ORDER BY s DESC LIMIT 3'),
  ('SELECT * FROM tn.pg_parquet ORDER BY cat, u DESC LIMIT 30'),
  ('SELECT * FROM tn.pg_parquet WHERE cat = ''rare'' ORDER BY u DESC LIMIT 3'),
  ('SELECT * FROM tn.pg_parquet WHERE cat <> ''rare'' AND n > 100 ORDER BY u LIMIT 3'),
  ('SELECT * FROM tn.rg_parquet ORDER BY x DESC, id LIMIT 5'),
  ('SELECT * FROM tn.rg_pk ORDER BY x, id DESC LIMIT 5'),
  ('SELECT * FROM tn.rg_mor ORDER BY x, id DESC LIMIT 5')
) v(q);
-- the primary-key table read through its deletion vectors (no merge): late too
SELECT topn_parts('SELECT id, x FROM tn.rg_pk ORDER BY x, id DESC LIMIT 5');
SELECT id, x FROM tn.rg_pk ORDER BY x, id DESC LIMIT 5;
-- the merged primary-key table decodes every column of its rows
SELECT topn_parts('SELECT id, x FROM tn.rg_mor ORDER BY x, id DESC LIMIT 5');
-- with page pruning off (enable_page_index), every column of every row
SET paimon_fdw.enable_page_index = off;
SELECT topn_parts('SELECT id, u, s FROM tn.pg_parquet ORDER BY u DESC LIMIT 5');
RESET paimon_fdw.enable_page_index;

-- in a join's inner side the top-N is computed again per rescan
SELECT v.k, x.id FROM (VALUES (1), (2)) v(k),
  LATERAL (SELECT id FROM tn.rg_parquet WHERE id > 0 ORDER BY id LIMIT 2) x ORDER BY 1, 2;
SELECT v.k, x.id FROM (VALUES (10), (2000)) v(k),
  LATERAL (SELECT id FROM tn.rg_parquet WHERE id > v.k ORDER BY id LIMIT 2) x ORDER BY 1, 2;

SET client_min_messages = warning;
DROP SCHEMA tn, tnx CASCADE;
DROP SERVER tnw, tnpq;
DROP FUNCTION topn_sweep(regclass), topn_compare(text), topn_parts(text);
DROP FUNCTION sweep_agg_queries(regclass, text[], text[]), sweep_run(text[], text, text);

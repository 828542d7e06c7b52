-- Included (\i) by sql/parallel_*.sql; each drops par_same at its end.
-- count and digest of the rows of q with 2 workers, or DIFFERENT when
-- they are not those of a plan without workers
CREATE FUNCTION par_same(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  wrap text := 'SELECT count(*) || '' rows '' || coalesce(md5(string_agg(t::text, '','' ORDER BY t::text)), '''') FROM (' || q || ') t';
  a text;
  b text;
  par bool := false;
  l text;
BEGIN
  PERFORM set_config('max_parallel_workers_per_gather', '2', true);
  FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    IF l LIKE '%Parallel Foreign Scan%' THEN par := true; END IF;
  END LOOP;
  EXECUTE wrap INTO a;
  PERFORM set_config('max_parallel_workers_per_gather', '0', true);
  EXECUTE wrap INTO b;
  PERFORM set_config('max_parallel_workers_per_gather', '2', true);
  RETURN CASE WHEN par THEN 'parallel, ' ELSE 'not parallel, ' END ||
    CASE WHEN a = b THEN split_part(a, ' ', 1) || ' rows, same' ELSE 'DIFFERENT: ' || a || ' vs ' || b END;
END $$;

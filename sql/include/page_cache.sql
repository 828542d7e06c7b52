-- Included (\i) by sql/point_lookup.sql and lookup_shared_pages.sql after
-- \set page_cache_schema <schema>; the schema's DROP ... CASCADE drops it.
-- The "Page Cache:" line of EXPLAIN ANALYZE of q, numbers as N, and
-- whether it missed.
CREATE FUNCTION :"page_cache_schema".page_cache(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ' || q LOOP
    IF line ~ 'Page Cache:' THEN
      RETURN NEXT regexp_replace(trim(line), '\d+', 'N', 'g') ||
        CASE WHEN line ~ ' 0 misses' THEN ' (no misses)' ELSE ' (misses)' END;
    END IF;
  END LOOP;
END $$;

-- File indexes written by Java Paimon drop whole files at planning
-- (EXPLAIN: "N by index"): bitmap v2 and v1 embedded in the manifest entry,
-- bitmap and bloom filter in .index sidecars, a primary-key table with
-- deletion vectors, and a table whose old file was written before a column
-- rename and an INT -> BIGINT change. Every value asked lies inside the
-- file's min/max, so statistics alone keep the file. Each result is
-- compared with the same filter in a form that is not pushed down.
\set SHOW_CONTEXT never
\getenv corpus PAIMON_CORPUS
SET TimeZone = 'UTC';
SELECT :'corpus' || '/tables/parquet' AS parquet_wh \gset
CREATE SERVER fi_pq FOREIGN DATA WRAPPER paimon_fdw OPTIONS (warehouse :'parquet_wh');
CREATE SCHEMA fi;
IMPORT FOREIGN SCHEMA "append_with_bitmap" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "append_with_bitmap_v1" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "append_with_bitmap_no_embedding" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "append_with_bloomfilter" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "pk_with_bitmap_dv" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "append_with_bitmap_alter_table" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "append_with_rangebitmap" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "append_with_rangebitmap_multi_chunk" FROM SERVER fi_pq INTO fi;
IMPORT FOREIGN SCHEMA "append_with_bsi" FROM SERVER fi_pq INTO fi;

-- bitmap v2, embedded: 'Carol' is absent, 'Bob' in rows 1 and 5
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap WHERE f0 = 'Carol';
SELECT * FROM fi.append_with_bitmap WHERE f0 = 'Carol';
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap WHERE f0 = 'Bob';
SELECT * FROM fi.append_with_bitmap WHERE f0 = 'Bob' ORDER BY f3;
SELECT * FROM fi.append_with_bitmap WHERE f0 || '' = 'Bob' ORDER BY f3;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap WHERE f0 IN ('Carol', 'Dave');
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap WHERE f0 IN ('Carol', 'Lucy');
SELECT * FROM fi.append_with_bitmap WHERE f0 IN ('Carol', 'Lucy');
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap WHERE f1 = 15;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap WHERE f0 = 'Carol' OR f1 = 15;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap WHERE f0 = 'Carol' OR f1 = 20;
SELECT * FROM fi.append_with_bitmap WHERE f0 = 'Carol' OR f1 = 20 ORDER BY f3;
SELECT * FROM fi.append_with_bitmap WHERE f0 || '' = 'Carol' OR f1 + 0 = 20 ORDER BY f3;

-- bitmap v1, embedded
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap_v1 WHERE f0 = 'Carol';
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap_v1 WHERE f2 = 0;
SELECT * FROM fi.append_with_bitmap_v1 WHERE f2 = 0 ORDER BY f3;

-- bitmap in a .index sidecar
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap_no_embedding WHERE f0 = 'Carol';
SELECT * FROM fi.append_with_bitmap_no_embedding WHERE f0 = 'Carol';
SELECT * FROM fi.append_with_bitmap_no_embedding WHERE f0 = 'Tony' ORDER BY f3;

-- bloom filters in a .index sidecar (f1 in [20, 500])
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bloomfilter WHERE f1 = 150;
SELECT * FROM fi.append_with_bloomfilter WHERE f1 = 150;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bloomfilter WHERE f1 = 100;
SELECT * FROM fi.append_with_bloomfilter WHERE f1 = 100 ORDER BY f3;
SELECT * FROM fi.append_with_bloomfilter WHERE f1 + 0 = 100 ORDER BY f3;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bloomfilter WHERE f0 = 'Carol';
EXPLAIN (COSTS OFF) SELECT f0 FROM fi.append_with_bloomfilter WHERE f3 = 13.5;
SELECT f0 FROM fi.append_with_bloomfilter WHERE f3 = 13.5;
SELECT f0 FROM fi.append_with_bloomfilter WHERE f3 = 13.1;

-- primary key with deletion vectors: the visible file needs no merge
EXPLAIN (COSTS OFF) SELECT * FROM fi.pk_with_bitmap_dv WHERE f0 = 'Carol';
EXPLAIN (COSTS OFF) SELECT * FROM fi.pk_with_bitmap_dv WHERE f0 = 'Alice';
SELECT * FROM fi.pk_with_bitmap_dv WHERE f0 = 'Alice';
SELECT * FROM fi.pk_with_bitmap_dv WHERE f0 || '' = 'Alice';

-- after the alter: f4 was f0 in the old file, f1 was INT there
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap_alter_table WHERE f4 = 'Carol';
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap_alter_table WHERE f1 = 15;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bitmap_alter_table WHERE f4 = 'Bob';
SELECT * FROM fi.append_with_bitmap_alter_table WHERE f4 = 'Bob' ORDER BY f3;
SELECT * FROM fi.append_with_bitmap_alter_table WHERE f4 || '' = 'Bob' ORDER BY f3;

-- range bitmaps in a .index sidecar: f0 holds 3 5 7 9 10 17 NULL NULL
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_rangebitmap WHERE f0 = 4;
SELECT * FROM fi.append_with_rangebitmap WHERE f0 = 4;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_rangebitmap WHERE f0 > 10 AND f0 < 17;
SELECT * FROM fi.append_with_rangebitmap WHERE f0 > 10 AND f0 < 17;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_rangebitmap WHERE f0 > 9 AND f0 < 17;
SELECT * FROM fi.append_with_rangebitmap WHERE f0 > 9 AND f0 < 17;
SELECT * FROM fi.append_with_rangebitmap WHERE f0 + 0 > 9 AND f0 + 0 < 17;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_rangebitmap WHERE f4 = '2024-01-04';
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_rangebitmap_multi_chunk WHERE f1 IN (150, 250);
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_rangebitmap_multi_chunk WHERE f1 IN (150, 300);
SELECT * FROM fi.append_with_rangebitmap_multi_chunk WHERE f1 IN (150, 300);
SELECT * FROM fi.append_with_rangebitmap_multi_chunk WHERE f1 + 0 IN (150, 300);

-- bit-slice indexes (f1, f2, f4) in a .index sidecar: f1 holds 20 50 100 100 200 300 500 NULL
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bsi WHERE f1 = 150;
SELECT * FROM fi.append_with_bsi WHERE f1 = 150;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bsi WHERE f1 > 300 AND f1 < 500;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bsi WHERE f1 >= 300 AND f1 < 500;
SELECT * FROM fi.append_with_bsi WHERE f1 >= 300 AND f1 < 500;
SELECT * FROM fi.append_with_bsi WHERE f1 + 0 >= 300 AND f1 + 0 < 500;
EXPLAIN (COSTS OFF) SELECT * FROM fi.append_with_bsi WHERE f2 = 0;

DROP SCHEMA fi CASCADE;
DROP SERVER fi_pq;

/*
 * GenPkBench.java
 *     Writes the primary-key benchmark tables of bench/gen_pk_table.sh with Apache Paimon's
 *     own Java writer (filesystem catalog, <warehouse>/bench.db/...):
 *
 *     bench.pk_7col       id BIGINT NOT NULL (primary key), a INT, b BIGINT, c DOUBLE,
 *                         d STRING, e DATE, f DECIMAL(12,2); deduplicate merge engine,
 *                         Parquet/zstd, no deletion vectors, write-only (no automatic
 *                         compaction). Commit 1 writes every key (version 0), a full
 *                         compaction turns it into the base (the highest level), then
 *                         <updates> commits each upsert a pseudo-random ~<fraction> of the
 *                         keys spread over the whole key range with new values (version k),
 *                         leaving <updates> overlapping level-0 files per bucket over the base.
 *     bench.pk_7col_flat  the same columns as an append table (bucket -1, no key) holding
 *                         the rows the merge read must return (per key, the values of the
 *                         last commit that wrote it), one file per PK-table bucket.
 *
 *     Every value is a function of (seed, id, version) (no sequential random state), so the
 *     final rows are recomputed for the flat table without reading the PK table back.
 *     At the end it prints the data files of the PK table's latest snapshot (bucket, level,
 *     row count, size) as the scan plans them.
 *
 *     Usage: GenPkBench <warehouse> <rows> [buckets=2] [updates=4] [fraction=0.1] [seed=42]
 */
package org.paimonfdw.oracle;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;

import java.nio.file.Paths;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

public final class GenPkBench {
    static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: GenPkBench <warehouse> <rows> [buckets=2] [updates=4] "
                    + "[fraction=0.1] [seed=42]");
            System.exit(2);
        }
        String warehouse = Paths.get(args[0]).toAbsolutePath().normalize().toString();
        long rows = Long.parseLong(args[1]);
        int buckets = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        int updates = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        double fraction = args.length > 4 ? Double.parseDouble(args[4]) : 0.1;
        long seed = args.length > 5 ? Long.parseLong(args[5]) : 42L;
        long threshold = (long) (fraction * (1L << 32));

        Options opts = new Options();
        opts.set("warehouse", warehouse);
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(opts))) {
            catalog.createDatabase("bench", true);
            Identifier pk = Identifier.create("bench", "pk_7col");
            Identifier flat = Identifier.create("bench", "pk_7col_flat");

            Schema.Builder b = columns();
            b.primaryKey("id");
            b.option("bucket", Integer.toString(buckets));
            b.option("file.format", "parquet");
            b.option("file.compression", "zstd");
            b.option("deletion-vectors.enabled", "false");
            b.option("merge-engine", "deduplicate");
            b.option("changelog-producer", "none");
            b.option("write-only", "true");
            b.option("target-file-size", "2 gb");
            catalog.createTable(pk, b.build(), false);

            Schema.Builder fb = columns();
            fb.option("bucket", "-1");
            fb.option("file.format", "parquet");
            fb.option("file.compression", "zstd");
            fb.option("target-file-size", "2 gb");
            catalog.createTable(flat, fb.build(), false);

            FileStoreTable table = (FileStoreTable) catalog.getTable(pk);

            /* commit 1: every key, version 0 */
            long t0 = System.nanoTime();
            try (BatchTableWrite w = newWrite(table); BatchTableCommit c = table.newBatchWriteBuilder().newCommit()) {
                GenericRow row = new GenericRow(7);
                for (long i = 0; i < rows; i++) {
                    fill(row, seed, i, 0);
                    w.write(row);
                }
                c.commit(w.prepareCommit());
            }
            System.err.printf("pk_7col commit 1: %d rows in %.1fs%n", rows, secs(t0));

            /* full compaction of every bucket: the write-only table would not compact */
            t0 = System.nanoTime();
            FileStoreTable compacting = table.copy(Collections.singletonMap("write-only", "false"));
            try (BatchTableWrite w = newWrite(compacting);
                    BatchTableCommit c = compacting.newBatchWriteBuilder().newCommit()) {
                for (int bk = 0; bk < buckets; bk++) {
                    w.compact(BinaryRow.EMPTY_ROW, bk, true);
                }
                c.commit(w.prepareCommit());
            }
            System.err.printf("pk_7col full compaction in %.1fs%n", secs(t0));

            /* commits 2..updates+1: upsert a pseudo-random subset of keys with version k */
            for (int k = 1; k <= updates; k++) {
                t0 = System.nanoTime();
                long n = 0;
                try (BatchTableWrite w = newWrite(table);
                        BatchTableCommit c = table.newBatchWriteBuilder().newCommit()) {
                    GenericRow row = new GenericRow(7);
                    for (long i = 0; i < rows; i++) {
                        if (updated(seed, i, k, threshold)) {
                            fill(row, seed, i, k);
                            w.write(row);
                            n++;
                        }
                    }
                    c.commit(w.prepareCommit());
                }
                System.err.printf("pk_7col commit %d: upserted %d rows in %.1fs%n", k + 1, n, secs(t0));
            }

            /* the flat table: the merged rows, one contiguous key range per commit (= file) */
            t0 = System.nanoTime();
            Table ft = catalog.getTable(flat);
            long per = (rows + buckets - 1) / buckets;
            for (long start = 0; start < rows; start += per) {
                long end = Math.min(rows, start + per);
                BatchWriteBuilder wb = ft.newBatchWriteBuilder();
                try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
                    w.withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
                    GenericRow row = new GenericRow(7);
                    for (long i = start; i < end; i++) {
                        int v = 0;
                        for (int k = updates; k >= 1; k--) {
                            if (updated(seed, i, k, threshold)) {
                                v = k;
                                break;
                            }
                        }
                        fill(row, seed, i, v);
                        w.write(row);
                    }
                    c.commit(w.prepareCommit());
                }
            }
            System.err.printf("pk_7col_flat: %d rows in %.1fs%n", rows, secs(t0));

            printFiles("pk_7col", catalog.getTable(pk));
            printFiles("pk_7col_flat", catalog.getTable(flat));
        }
    }

    static Schema.Builder columns() {
        Schema.Builder b = Schema.newBuilder();
        b.column("id", DataTypes.BIGINT().notNull());
        b.column("a", DataTypes.INT());
        b.column("b", DataTypes.BIGINT());
        b.column("c", DataTypes.DOUBLE());
        b.column("d", DataTypes.STRING());
        b.column("e", DataTypes.DATE());
        b.column("f", DataTypes.DECIMAL(12, 2));
        return b;
    }

    static BatchTableWrite newWrite(Table t) {
        BatchTableWrite w = t.newBatchWriteBuilder().newWrite();
        w.withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
        return w;
    }

    /* splitmix64 finalizer */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static long hash(long seed, long id, long version, long salt) {
        return mix(mix(mix(seed * 0x9e3779b97f4a7c15L + salt) ^ id) + version * 0x632be59bd9b4e019L);
    }

    /* true when commit k (1..updates) upserts key i */
    static boolean updated(long seed, long i, int k, long threshold) {
        return (hash(seed, i, k, 7) & 0xffffffffL) < threshold;
    }

    static void fill(GenericRow row, long seed, long i, int version) {
        long h = hash(seed, i, version, 1);
        long h2 = hash(seed, i, version, 2);
        row.setField(0, i);
        row.setField(1, (int) ((h >>> 1) % 1000) + version * 1000);
        row.setField(2, h2 % 1_000_000_000L);
        row.setField(3, ((h >>> 20) % 10_000_000) / 100.0);
        row.setField(4, BinaryString.fromString(WORDS[(int) ((h >>> 40) & 7)] + (i % 97) + "v" + version));
        row.setField(5, (int) (18_000 + ((i + 7L * version) % 3650)));
        row.setField(6, Decimal.fromUnscaledLong((h2 >>> 8) % 100_000_000L, 12, 2));
    }

    static double secs(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    static void printFiles(String name, Table t) {
        Map<String, long[]> levels = new TreeMap<>();
        System.out.printf("%s files (latest snapshot %d):%n", name,
                ((FileStoreTable) t).snapshotManager().latestSnapshotId());
        System.out.printf("  %-6s %-5s %12s %12s  %s%n", "bucket", "level", "rows", "bytes", "file");
        for (Split s : t.newReadBuilder().newScan().plan().splits()) {
            DataSplit ds = (DataSplit) s;
            for (DataFileMeta f : ds.dataFiles()) {
                System.out.printf("  %-6d %-5d %12d %12d  %s%n", ds.bucket(), f.level(), f.rowCount(),
                        f.fileSize(), f.fileName());
                long[] acc = levels.computeIfAbsent("level " + f.level(), x -> new long[2]);
                acc[0]++;
                acc[1] += f.rowCount();
            }
        }
        for (Map.Entry<String, long[]> e : levels.entrySet()) {
            System.out.printf("  %s: %d files, %d rows%n", e.getKey(), e.getValue()[0], e.getValue()[1]);
        }
    }

    private GenPkBench() {
    }
}

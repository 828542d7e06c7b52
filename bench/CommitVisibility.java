/*
 * CommitVisibility - the Java side of bench/run_commit_visibility.sh: a JVM polling a
 * Paimon table (Apache Paimon's own Java API, filesystem catalog, no catalog cache) until
 * the row with id k is readable, for k = 1..n in turn.
 *
 *   java CommitVisibility <warehouse> <db> <table> <n> <poll_micros>
 *
 * Prints "ready" once warmed up (300 reads, or 20 s of them), then for each k
 * "seen <k> <epoch micros> <snapshot id> <epoch micros>": the moment a read of the latest
 * snapshot returned the row with id k (column 0, BIGINT), and the moment before that read
 * when the new snapshot id was first seen. It reads again only when the latest
 * snapshot id changed, and sleeps poll_micros between looks at the snapshot directory.
 */
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.utils.SnapshotManager;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

public class CommitVisibility {
    public static void main(String[] args) throws Exception {
        Options options = new Options();
        options.set("warehouse", args[0]);
        options.set("cache-enabled", "false");
        Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
        FileStoreTable table = (FileStoreTable) catalog.getTable(Identifier.create(args[1], args[2]));
        int n = Integer.parseInt(args[3]);
        long pollMicros = Long.parseLong(args[4]);
        SnapshotManager snapshots = table.snapshotManager();

        // warm up (the JIT): reads for up to 20 s, as a long-running reader would be
        long warm = System.nanoTime();
        for (int i = 0; i < 300 && System.nanoTime() - warm < 20_000_000_000L; i++) {
            contains(table, 0);  // the row inserted before the JVM started: a real file read
        }
        Long latest = snapshots.latestSnapshotId();
        long last = latest == null ? 0 : latest;
        System.out.println("ready");
        System.out.flush();
        for (int k = 1; k <= n; ) {
            latest = snapshots.latestSnapshotId();
            if (latest != null && latest > last) {
                long snapshotSeen = micros();
                last = latest;
                if (contains(table, k)) {
                    System.out.println("seen " + k + " " + micros() + " " + latest + " " + snapshotSeen);
                    System.out.flush();
                    k++;
                    continue;
                }
            }
            Thread.sleep(pollMicros / 1000, (int) (pollMicros % 1000) * 1000);
        }
    }

    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /* Whether the latest snapshot holds a row with id k. */
    static boolean contains(FileStoreTable table, long k) throws Exception {
        ReadBuilder rb = table.newReadBuilder()
                .withFilter(new PredicateBuilder(table.rowType()).equal(0, k));
        AtomicBoolean found = new AtomicBoolean(false);
        try (RecordReader<InternalRow> reader =
                     rb.newRead().executeFilter().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(row -> {
                if (row.getLong(0) == k) {
                    found.set(true);
                }
            });
        }
        return found.get();
    }
}

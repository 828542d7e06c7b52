/*
 * Oracle.java
 *     Reference oracle for paimon_fdw: a command-line tool over Apache Paimon's own Java
 *     API (filesystem catalog, <warehouse>/<db>.db/<table>) used by the differential and
 *     round-trip tests. It creates tables, writes commits, reads rows and prints metadata.
 *
 * Commands (see ../README.md):
 *   create   <warehouse> <db> <table> <table.json>
 *   write    <warehouse> <db> <table> <ops.jsonl>
 *   read     <warehouse> <db> <table> [--snapshot N] [--tag NAME]
 *   snapshots <warehouse> <db> <table>
 *   files    <warehouse> <db> <table> [--snapshot N]
 *   schema   <warehouse> <db> <table> [--snapshot N]
 *   dump     <warehouse> <db> <table>      (schema + rows of latest and of every snapshot)
 *   scenario <warehouse> <db> <table> <table.json> <ops.jsonl>   (create + write + dump)
 *   gen-bench <warehouse> <db> <table> <rows> <commits> [seed]
 *   assign-vectors <scenario.json>   (Java's PartitionIndex on given HASH index files:
 *                                     the bucket of each key hash; for unit test vectors)
 *
 * Rows are JSON arrays in column order, with the value encoding of
 * shared/corpus/expected/README.md (decimals as strings with s digits, timestamps as ISO
 * strings with p fraction digits, LTZ as UTC with "Z", bytes as lowercase hex, MAP as an
 * array of [k, v] pairs, ROW as an object).
 */
package org.paimonfdw.oracle;

import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.crosspartition.ExistingProcessor;
import org.apache.paimon.crosspartition.IndexBootstrap;
import org.apache.paimon.crosspartition.KeyPartPartitionKeyExtractor;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.index.PartitionIndex;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.util.RawValue;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.DynamicBucketRowKeyExtractor;
import org.apache.paimon.table.sink.RowPartitionAllPrimaryKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimeType;
import org.apache.paimon.types.TimestampType;
import org.apache.paimon.utils.IDMapping;
import org.apache.paimon.utils.Int2ShortHashMap;
import org.apache.paimon.utils.ProjectToRowFunction;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

public final class Oracle {
    static final ObjectMapper JSON = new ObjectMapper();
    static final JsonNodeFactory NF = JsonNodeFactory.instance;

    public static void main(String[] args) throws Exception {
        /* batch <file>: one command a line ("<cmd> <warehouse> <db> <table> [args]",
           words split on blanks), run in this JVM; "... > <path>" sends its output there */
        if (args.length == 2 && args[0].equals("batch")) {
            PrintStream stdout = System.out;
            for (String line : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
                line = line.trim();
                if (line.isEmpty()) {
                    continue;
                }
                String target = null;
                int gt = line.lastIndexOf(" > ");
                if (gt >= 0) {
                    target = line.substring(gt + 3).trim();
                    line = line.substring(0, gt).trim();
                }
                try (PrintStream to = target == null ? null
                        : new PrintStream(Files.newOutputStream(Paths.get(target)), false, "UTF-8")) {
                    System.setOut(to == null ? stdout : to);
                    main(line.split("\\s+"));
                    System.out.flush();
                } finally {
                    System.setOut(stdout);
                }
            }
            return;
        }
        if (args.length == 2 && args[0].equals("assign-vectors")) {
            assignVectors(JSON.readTree(Files.readString(Paths.get(args[1]))));
            return;
        }
        if (args.length < 4) {
            usage();
        }
        String cmd = args[0];
        String warehouse = args[1];
        Identifier id = Identifier.create(args[2], args[3]);
        Map<String, String> flags = new HashMap<>();
        List<String> rest = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            if (args[i].startsWith("--") && i + 1 < args.length) {
                flags.put(args[i].substring(2), args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        Options opts = new Options();
        opts.set("warehouse", Paths.get(warehouse).toAbsolutePath().normalize().toString());
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(opts))) {
            switch (cmd) {
                case "create":
                    need(rest, 1);
                    create(catalog, id, JSON.readTree(Files.readString(Paths.get(rest.get(0)))));
                    break;
                case "write":
                    need(rest, 1);
                    write(catalog, id, rest.get(0));
                    break;
                case "read":
                    read(catalog, id, flags);
                    break;
                case "snapshots":
                    snapshots(catalog, id);
                    break;
                case "dump":
                    dump(catalog, id);
                    break;
                case "scenario":
                    need(rest, 2);
                    create(catalog, id, JSON.readTree(Files.readString(Paths.get(rest.get(0)))));
                    write(catalog, id, rest.get(1));
                    dump(catalog, id);
                    break;
                case "files":
                    files(catalog, id, flags);
                    break;
                case "schema":
                    schema(catalog, id, flags);
                    break;
                case "gen-bench":
                    need(rest, 2);
                    genBench(catalog, id, Long.parseLong(rest.get(0)), Integer.parseInt(rest.get(1)),
                            rest.size() > 2 ? Long.parseLong(rest.get(2)) : 42L);
                    break;
                default:
                    usage();
            }
        }
    }

    static void usage() {
        System.err.println("usage: oracle create|write|read|snapshots|files|schema|gen-bench "
                + "<warehouse> <db> <table> [args] (see test/oracle/README.md)");
        System.exit(2);
    }

    static void need(List<String> rest, int n) {
        if (rest.size() < n) {
            usage();
        }
    }

    // ------------------------------------------------------------------ types

    /** Parses a Paimon type string: atomic types plus ARRAY<..>, MAP<k, v>, ROW<name type, ..>. */
    static DataType parseType(String s) {
        s = s.trim();
        boolean nullable = true;
        String up = s.toUpperCase();
        if (up.endsWith(" NOT NULL")) {
            nullable = false;
            s = s.substring(0, s.length() - " NOT NULL".length()).trim();
            up = s.toUpperCase();
        }
        DataType t;
        if (up.startsWith("ARRAY<")) {
            t = DataTypes.ARRAY(parseType(inner(s)));
        } else if (up.startsWith("MAP<")) {
            List<String> kv = splitTop(inner(s));
            t = DataTypes.MAP(parseType(kv.get(0)), parseType(kv.get(1)));
        } else if (up.startsWith("MULTISET<")) {
            t = DataTypes.MULTISET(parseType(inner(s)));
        } else if (up.startsWith("ROW<")) {
            List<DataField> fields = new ArrayList<>();
            int fid = 0;
            for (String f : splitTop(inner(s))) {
                f = f.trim();
                int sp = f.indexOf(' ');
                String name = f.substring(0, sp).replace("`", "");
                fields.add(new DataField(fid++, name, parseType(f.substring(sp + 1))));
            }
            t = DataTypes.ROW(fields.toArray(new DataField[0]));
        } else {
            t = DataTypeJsonParser.parseAtomicTypeSQLString(s);
        }
        return t.copy(nullable);
    }

    static String inner(String s) {
        return s.substring(s.indexOf('<') + 1, s.lastIndexOf('>'));
    }

    static List<String> splitTop(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '<' || c == '(') {
                depth++;
            } else if (c == '>' || c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i).trim());
                start = i + 1;
            }
        }
        out.add(s.substring(start).trim());
        return out;
    }

    // ------------------------------------------------------------------ create

    static void create(Catalog catalog, Identifier id, JsonNode desc) throws Exception {
        Schema.Builder b = Schema.newBuilder();
        for (JsonNode c : desc.get("columns")) {
            // "default": DataField.defaultValue (TableWriteImpl writes it for NULL)
            JsonNode d = c.get("default");
            b.column(c.get("name").asText(), parseType(c.get("type").asText()), null,
                    d == null || d.isNull() ? null : d.asText());
        }
        List<String> pk = strings(desc.get("primary_keys"));
        if (!pk.isEmpty()) {
            b.primaryKey(pk);
        }
        List<String> part = strings(desc.get("partition_keys"));
        if (!part.isEmpty()) {
            b.partitionKeys(part);
        }
        JsonNode o = desc.get("options");
        if (o != null) {
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                b.option(e.getKey(), e.getValue().asText());
            }
        }
        catalog.createDatabase(id.getDatabaseName(), true);
        catalog.createTable(id, b.build(), false);
    }

    static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n != null) {
            for (JsonNode x : n) {
                out.add(x.asText());
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ write

    /*
     * ops.jsonl: one JSON object per line. Row ops are buffered and committed together at
     * the next {"op":"commit"} (or before any other op, or at end of file):
     *   {"op":"+I"|"-U"|"+U"|"-D", "row":[...]}       (row in column order, or an object)
     *   {"op":"commit"}
     *   {"op":"compact"}     (full compaction of every partition/bucket, one commit; for
     *                         bucket-unaware append tables Paimon's AppendCompactCoordinator)
     *   {"op":"tag","name":"t1"[,"snapshot":N]}
     *   {"op":"write-compact","bucket":B,"ready":"<path>","wait_for":"<path>"}
     *                        (unpartitioned tables: the pending rows and a full compaction
     *                         of bucket B by one writer, prepared from the snapshot it
     *                         restored; then <ready> is created, and once <wait_for>
     *                         exists both are committed, APPEND then COMPACT: a writer
     *                         racing another one's commit, test/oracle/compact/lsm_race.sh)
     *   {"op":"alter","changes":[{"add":"c","type":"INT"} | {"drop":"c"} |
     *        {"rename":"a","to":"b"} | {"update_type":"c","type":"BIGINT"} |
     *        {"set":"key","value":"v"}]}
     */
    static void write(Catalog catalog, Identifier id, String opsPath) throws Exception {
        List<JsonNode> pending = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(Paths.get(opsPath), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                line = line.trim();
                if (line.isEmpty()) {
                    continue;
                }
                JsonNode op = JSON.readTree(line);
                String kind = op.get("op").asText();
                switch (kind) {
                    case "+I":
                    case "-U":
                    case "+U":
                    case "-D":
                        pending.add(op);
                        break;
                    case "commit":
                        commitRows(catalog, id, pending);
                        pending.clear();
                        break;
                    case "compact":
                        commitRows(catalog, id, pending);
                        pending.clear();
                        compact(catalog, id);
                        break;
                    case "write-compact":
                        writeCompact(catalog, id, pending, op);
                        pending.clear();
                        break;
                    case "tag":
                        commitRows(catalog, id, pending);
                        pending.clear();
                        Table t = catalog.getTable(id);
                        if (op.has("snapshot")) {
                            t.createTag(op.get("name").asText(), op.get("snapshot").asLong());
                        } else {
                            t.createTag(op.get("name").asText());
                        }
                        break;
                    case "alter":
                        commitRows(catalog, id, pending);
                        pending.clear();
                        alter(catalog, id, op.get("changes"));
                        break;
                    default:
                        throw new IllegalArgumentException("unknown op: " + kind);
                }
            }
        }
        commitRows(catalog, id, pending);
    }

    static void commitRows(Catalog catalog, Identifier id, List<JsonNode> ops) throws Exception {
        if (ops.isEmpty()) {
            return;
        }
        Table table = catalog.getTable(id);
        RowType rt = table.rowType();
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        /* dynamic-bucket tables: the bucket of each row from Java's own assigner, as
           Flink's HashBucketAssignerOperator with one assigner (it loads the hash index) */
        FileStoreTable ft = (FileStoreTable) table;
        HashBucketAssigner assigner = null;
        DynamicBucketRowKeyExtractor keys = null;
        if (ft.bucketMode() == BucketMode.HASH_DYNAMIC) {
            assigner = new HashBucketAssigner(ft.snapshotManager(), "oracle",
                    ft.store().newIndexFileHandler(), 1, 1, 0,
                    ft.coreOptions().dynamicBucketTargetRowNum(),
                    ft.coreOptions().dynamicBucketMaxBuckets());
            keys = new DynamicBucketRowKeyExtractor(ft.schema());
        }
        try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            w.withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
            if (ft.bucketMode() == BucketMode.KEY_DYNAMIC) {
                CrossPartitionAssigner xp = new CrossPartitionAssigner(ft, w);
                for (JsonNode op : ops) {
                    GenericRow row = toRow(rt, op.get("row"));
                    row.setRowKind(RowKind.fromShortString(op.get("op").asText()));
                    xp.processInput(row);
                }
                c.commit(w.prepareCommit());
                return;
            }
            for (JsonNode op : ops) {
                GenericRow row = toRow(rt, op.get("row"));
                row.setRowKind(RowKind.fromShortString(op.get("op").asText()));
                if (assigner != null) {
                    keys.setRecord(row);
                    w.write(row, assigner.assign(keys.partition(), keys.trimmedPrimaryKey().hashCode()));
                } else {
                    w.write(row);
                }
            }
            c.commit(w.prepareCommit());
        }
    }

    /*
     * Cross-partition upsert tables (bucket -1, a partition key not in the primary key):
     * Flink's GlobalIndexAssigner with one assigner, its key index in a HashMap instead
     * of RocksDB: IndexBootstrap reads the latest snapshot's keys with their partition
     * and bucket (BucketAssigner.bootstrapBucket counts them), then each record goes
     * through processInput's logic with Java's own BucketAssigner and ExistingProcessor
     * (records after the bootstrap, never the bulk-load path of an empty table: that
     * one writes fewer retractions but the same rows).
     */
    static final class CrossPartitionAssigner {
        final Map<BinaryRow, int[]> keyIndex = new HashMap<>();
        final IDMapping<BinaryRow> partMapping = new IDMapping<>(BinaryRow::copy);
        final org.apache.paimon.crosspartition.BucketAssigner bucketAssigner =
                new org.apache.paimon.crosspartition.BucketAssigner();
        final RowPartitionAllPrimaryKeyExtractor extractor;
        final ExistingProcessor existingProcessor;
        final int targetBucketRowNumber;

        CrossPartitionAssigner(FileStoreTable ft, BatchTableWrite w) throws Exception {
            extractor = new RowPartitionAllPrimaryKeyExtractor(ft.schema());
            targetBucketRowNumber = (int) ft.coreOptions().dynamicBucketTargetRowNum();
            existingProcessor = ExistingProcessor.create(ft.coreOptions().mergeEngine(),
                    new ProjectToRowFunction(ft.rowType(), ft.partitionKeys()), bucketAssigner,
                    (row, bucket) -> {
                        try {
                            w.write(row, bucket);
                        } catch (Exception e) {
                            throw new RuntimeException(e);
                        }
                    });
            KeyPartPartitionKeyExtractor keyPart = new KeyPartPartitionKeyExtractor(ft.schema());
            int bucketIndex = IndexBootstrap.bootstrapType(ft.schema()).getFieldCount() - 1;
            new IndexBootstrap(ft).bootstrap(1, 0, value -> {
                BinaryRow partition = keyPart.partition(value);
                BinaryRow key = keyPart.trimmedPrimaryKey(value).copy();
                int partId = partMapping.index(partition);
                int bucket = value.getInt(bucketIndex);
                bucketAssigner.bootstrapBucket(partition, bucket);
                if (keyIndex.put(key, new int[] {partId, bucket}) != null) {
                    throw new RuntimeException("duplicate key in the bootstrap");
                }
            });
            this.w = w;
        }

        final BatchTableWrite w;

        void processInput(InternalRow value) throws Exception {
            BinaryRow partition = extractor.partition(value);
            BinaryRow key = extractor.trimmedPrimaryKey(value);
            int partId = partMapping.index(partition);
            int[] partitionBucket = keyIndex.get(key);
            if (partitionBucket != null) {
                if (partitionBucket[0] == partId) {
                    w.write(value, partitionBucket[1]);
                } else if (existingProcessor.processExists(
                        value, partMapping.get(partitionBucket[0]), partitionBucket[1])) {
                    processNewRecord(partition, partId, key, value);
                }
            } else {
                processNewRecord(partition, partId, key, value);
            }
        }

        void processNewRecord(BinaryRow partition, int partId, BinaryRow key, InternalRow value)
                throws Exception {
            int bucket = bucketAssigner.assignBucket(partition, b -> true, targetBucketRowNumber);
            keyIndex.put(key.copy(), new int[] {partId, bucket});
            w.write(value, bucket);
        }
    }

    /*
     * {"target": N, "max": M, "files": [[bucket, [hash, ...]], ...], "assign": [hash, ...]}:
     * the index of one partition loaded from those HASH index files in that order (the
     * loop of PartitionIndex.loadIndex, one assigner), then the buckets Java's
     * PartitionIndex.assign gives the hashes of "assign" (maxBucketId tracked as
     * HashBucketAssigner does). Prints one JSON array of buckets.
     */
    static void assignVectors(JsonNode sc) {
        long target = sc.get("target").asLong();
        int max = sc.get("max").asInt();
        Int2ShortHashMap.Builder mapBuilder = Int2ShortHashMap.builder();
        Map<Integer, Long> buckets = new HashMap<>();
        for (JsonNode f : sc.get("files")) {
            int bucket = f.get(0).asInt();
            for (JsonNode h : f.get(1)) {
                mapBuilder.put(h.asInt(), (short) bucket);
                buckets.compute(bucket, (b, n) -> n == null ? 1 : n + 1);
            }
        }
        PartitionIndex index = new PartitionIndex(mapBuilder.build(), buckets, target);
        int maxBucketId = 0;
        ArrayNode out = NF.arrayNode();
        for (JsonNode h : sc.get("assign")) {
            int b = index.assign(h.asInt(), x -> true, max, maxBucketId);
            maxBucketId = Math.max(maxBucketId, b);
            out.add(b);
        }
        System.out.println(out.toString());
    }

    static void writeCompact(Catalog catalog, Identifier id, List<JsonNode> ops, JsonNode op)
            throws Exception {
        Table table = catalog.getTable(id);
        RowType rt = table.rowType();
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            w.withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
            for (JsonNode o : ops) {
                GenericRow row = toRow(rt, o.get("row"));
                row.setRowKind(RowKind.fromShortString(o.get("op").asText()));
                w.write(row);
            }
            w.compact(BinaryRow.EMPTY_ROW, op.get("bucket").asInt(), true);
            List<CommitMessage> msgs = w.prepareCommit();
            Files.write(Paths.get(op.get("ready").asText()), new byte[0]);
            while (!Files.exists(Paths.get(op.get("wait_for").asText()))) {
                Thread.sleep(20);
            }
            c.commit(msgs);
        }
    }

    static void compact(Catalog catalog, Identifier id) throws Exception {
        Table table = catalog.getTable(id);
        if (((FileStoreTable) table).coreOptions().bucket() == BucketMode.POSTPONE_BUCKET) {
            compactPostpone((FileStoreTable) table);
            return;
        }
        ReadBuilder rb = table.newReadBuilder();
        Set<String> seen = new LinkedHashSet<>();
        List<Object[]> targets = new ArrayList<>();
        for (Split s : rb.newScan().plan().splits()) {
            DataSplit ds = (DataSplit) s;
            String key = ds.partition().toString() + "/" + ds.bucket();
            if (seen.add(key)) {
                targets.add(new Object[] {ds.partition(), ds.bucket()});
            }
        }
        if (targets.isEmpty()) {
            return;
        }
        int bucket = ((FileStoreTable) table).coreOptions().bucket();
        if (bucket == -1 && ((FileStoreTable) table).schema().primaryKeys().isEmpty()) {
            // bucket-unaware append table: Paimon's own coordinator picks the small files
            // (at least compaction.min.file-num of them per partition) and rewrites them
            FileStoreTable ft = (FileStoreTable) table;
            List<AppendCompactTask> tasks = new AppendCompactCoordinator(ft, false).run();
            if (tasks.isEmpty()) {
                return;
            }
            BaseAppendFileStoreWrite aw =
                    (BaseAppendFileStoreWrite) ft.store().newWrite(UUID.randomUUID().toString());
            List<CommitMessage> msgs = new ArrayList<>();
            for (AppendCompactTask task : tasks) {
                msgs.add(task.doCompact(ft, aw));
            }
            aw.close();
            try (BatchTableCommit c = table.newBatchWriteBuilder().newCommit()) {
                c.commit(msgs);
            }
            return;
        }
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            w.withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
            for (Object[] t : targets) {
                w.compact((BinaryRow) t[0], (Integer) t[1], true);
            }
            List<CommitMessage> msgs = w.prepareCommit();
            c.commit(msgs);
        }
    }

    /*
     * Postpone-bucket tables (bucket = -2): Flink's CompactAction.buildForPostponeBucketCompaction
     * on one thread, with core classes only (its Flink operators wrap these steps): per
     * partition holding postpone files, a copy of the table with the partition's bucket count
     * (its real-bucket files', else postpone.default-bucket-num); the postpone files of each
     * split replayed in creationTime order (PostponeBucketCompactSplitSource) through that
     * table's read (no merge for bucket -2, row kinds kept) into its batch writer; the
     * writer's messages rewritten as PostponeBucketCommittableRewriter / BucketFiles do (new
     * files become compactAfter), the postpone files deleted as
     * RemovePostponeBucketFilesOperator does; one commit of it all.
     */
    static void compactPostpone(FileStoreTable table) throws Exception {
        // CoreOptions.POSTPONE_DEFAULT_BUCKET_NUM (1.4), FlinkConnectorOptions' in 1.3
        int defaultNum = Integer.parseInt(
                table.options().getOrDefault("postpone.default-bucket-num", "1").trim());
        Map<String, String> bo = new HashMap<>(table.options());
        bo.put("bucket", String.valueOf(defaultNum));
        FileStoreTable ft = table.copy(table.schema().copy(bo));
        List<BinaryRow> partitions =
                ft.newSnapshotReader().withBucket(BucketMode.POSTPONE_BUCKET).partitions();
        List<CommitMessage> all = new ArrayList<>();
        for (BinaryRow p : partitions) {
            int n = defaultNum;
            Iterator<org.apache.paimon.manifest.ManifestEntry> it = table.newSnapshotReader()
                    .withPartitionFilter(java.util.Collections.singletonList(p))
                    .onlyReadRealBuckets().readFileIterator();
            if (it.hasNext()) {
                n = it.next().totalBuckets();
            }
            Map<String, String> ro = new HashMap<>(table.options());
            ro.put("bucket", String.valueOf(n));
            FileStoreTable real = table.copy(table.schema().copy(ro));
            List<Split> splits = real.newSnapshotReader()
                    .withPartitionFilter(java.util.Collections.singletonList(p))
                    .withBucket(BucketMode.POSTPONE_BUCKET).read().splits();
            org.apache.paimon.table.source.TableRead read = real.newRead();
            try (BatchTableWrite w = real.newBatchWriteBuilder().newWrite()) {
                w.withIOManager(IOManager.create(System.getProperty("java.io.tmpdir")));
                for (Split s : splits) {
                    DataSplit ds = (DataSplit) s;
                    List<DataFileMeta> files = new ArrayList<>(ds.dataFiles());
                    files.sort(java.util.Comparator.comparing(DataFileMeta::creationTime));
                    for (DataFileMeta meta : files) {
                        DataSplit one = DataSplit.builder().withPartition(ds.partition())
                                .withBucket(ds.bucket()).withBucketPath(ds.bucketPath())
                                .withTotalBuckets(ds.totalBuckets())
                                .withDataFiles(java.util.Collections.singletonList(meta))
                                .isStreaming(false).build();
                        try (RecordReader<InternalRow> r = read.createReader(one)) {
                            RecordReader.RecordIterator<InternalRow> batch;
                            while ((batch = r.readBatch()) != null) {
                                InternalRow row;
                                while ((row = batch.next()) != null) {
                                    w.write(row);
                                }
                                batch.releaseBatch();
                            }
                        }
                    }
                    all.add(new org.apache.paimon.table.sink.CommitMessageImpl(ds.partition(),
                            ds.bucket(), ds.totalBuckets(),
                            org.apache.paimon.io.DataIncrement.emptyIncrement(),
                            new org.apache.paimon.io.CompactIncrement(ds.dataFiles(),
                                    new ArrayList<>(), new ArrayList<>())));
                }
                for (CommitMessage m : w.prepareCommit()) {
                    all.add(rewritePostponeMessage(
                            (org.apache.paimon.table.sink.CommitMessageImpl) m, real));
                }
            }
        }
        if (all.isEmpty()) {
            return;
        }
        try (BatchTableCommit c = ft.newBatchWriteBuilder().newCommit()) {
            c.commit(all);
        }
    }

    static CommitMessage rewritePostponeMessage(
            org.apache.paimon.table.sink.CommitMessageImpl m, FileStoreTable real) {
        Map<String, DataFileMeta> newFiles = new LinkedHashMap<>();
        for (DataFileMeta f : m.newFilesIncrement().newFiles()) {
            newFiles.put(f.fileName(), f);
        }
        org.apache.paimon.io.DataFilePathFactory pf = real.store().pathFactory()
                .createDataFilePathFactory(m.partition(), m.bucket());
        Map<String, org.apache.paimon.fs.Path> toDelete = new HashMap<>();
        List<DataFileMeta> before = new ArrayList<>();
        List<DataFileMeta> after = new ArrayList<>();
        for (DataFileMeta f : m.compactIncrement().compactBefore()) {
            if (newFiles.containsKey(f.fileName())) {
                toDelete.put(f.fileName(), pf.toPath(f));
                newFiles.remove(f.fileName());
            } else {
                before.add(f);
            }
        }
        for (DataFileMeta f : m.compactIncrement().compactAfter()) {
            after.add(f);
            toDelete.remove(f.fileName());
        }
        for (org.apache.paimon.fs.Path path : toDelete.values()) {
            real.fileIO().deleteQuietly(path);
        }
        List<DataFileMeta> changelog = new ArrayList<>(m.newFilesIncrement().changelogFiles());
        changelog.addAll(m.compactIncrement().changelogFiles());
        List<DataFileMeta> realAfter = new ArrayList<>(newFiles.values());
        realAfter.addAll(after);
        return new org.apache.paimon.table.sink.CommitMessageImpl(m.partition(), m.bucket(),
                m.totalBuckets(), org.apache.paimon.io.DataIncrement.emptyIncrement(),
                new org.apache.paimon.io.CompactIncrement(before, realAfter, changelog,
                        m.compactIncrement().newIndexFiles(),
                        m.compactIncrement().deletedIndexFiles()));
    }

    static void alter(Catalog catalog, Identifier id, JsonNode changes) throws Exception {
        List<SchemaChange> out = new ArrayList<>();
        for (JsonNode ch : changes) {
            if (ch.has("add")) {
                out.add(SchemaChange.addColumn(ch.get("add").asText(), parseType(ch.get("type").asText())));
            } else if (ch.has("drop")) {
                out.add(SchemaChange.dropColumn(ch.get("drop").asText()));
            } else if (ch.has("rename")) {
                out.add(SchemaChange.renameColumn(ch.get("rename").asText(), ch.get("to").asText()));
            } else if (ch.has("update_type")) {
                out.add(SchemaChange.updateColumnType(ch.get("update_type").asText(),
                        parseType(ch.get("type").asText())));
            } else if (ch.has("set")) {
                out.add(SchemaChange.setOption(ch.get("set").asText(), ch.get("value").asText()));
            } else {
                throw new IllegalArgumentException("unknown schema change: " + ch);
            }
        }
        catalog.alterTable(id, out, false);
    }

    // JSON value (expected/README encoding) -> Paimon internal value
    static GenericRow toRow(RowType rt, JsonNode n) {
        List<DataField> fields = rt.getFields();
        GenericRow row = new GenericRow(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            JsonNode v = n.isArray() ? n.get(i) : n.get(fields.get(i).name());
            row.setField(i, toInternal(fields.get(i).type(), v));
        }
        return row;
    }

    static Object toInternal(DataType t, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return v.asBoolean();
            case TINYINT:
                return (byte) v.asInt();
            case SMALLINT:
                return (short) v.asInt();
            case INTEGER:
                return v.asInt();
            case BIGINT:
                return v.isTextual() ? Long.parseLong(v.asText()) : v.asLong();
            case FLOAT:
                return v.isTextual() ? Float.parseFloat(v.asText()) : Float.parseFloat(v.asText());
            case DOUBLE:
                return v.isTextual() ? Double.parseDouble(v.asText()) : v.asDouble();
            case DECIMAL: {
                DecimalType d = (DecimalType) t;
                return Decimal.fromBigDecimal(new BigDecimal(v.asText()), d.getPrecision(), d.getScale());
            }
            case CHAR:
            case VARCHAR:
                return BinaryString.fromString(v.asText());
            case BINARY:
            case VARBINARY:
                return unhex(v.asText());
            case DATE:
                return (int) LocalDate.parse(v.asText()).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return (int) (LocalTime.parse(v.asText()).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Timestamp.fromLocalDateTime(LocalDateTime.parse(v.asText()));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                String s = v.asText();
                if (s.endsWith("Z")) {
                    s = s.substring(0, s.length() - 1);
                }
                return Timestamp.fromLocalDateTime(LocalDateTime.parse(s));
            }
            case ARRAY: {
                DataType et = ((ArrayType) t).getElementType();
                Object[] a = new Object[v.size()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = toInternal(et, v.get(i));
                }
                return new GenericArray(a);
            }
            case MAP: {
                MapType mt = (MapType) t;
                Map<Object, Object> m = new LinkedHashMap<>();
                for (JsonNode kv : v) {
                    m.put(toInternal(mt.getKeyType(), kv.get(0)), toInternal(mt.getValueType(), kv.get(1)));
                }
                return new GenericMap(m);
            }
            case ROW:
                return toRow((RowType) t, v);
            default:
                throw new UnsupportedOperationException("type not supported by oracle writer: " + t);
        }
    }

    static byte[] unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    // ------------------------------------------------------------------ read

    static Table tableAt(Catalog catalog, Identifier id, Map<String, String> flags) throws Exception {
        Table t = catalog.getTable(id);
        Map<String, String> dyn = new HashMap<>();
        if (flags.containsKey("snapshot")) {
            dyn.put("scan.snapshot-id", flags.get("snapshot"));
        }
        if (flags.containsKey("tag")) {
            dyn.put("scan.tag-name", flags.get("tag"));
        }
        // --options: a JSON object of dynamic table options (e.g. incremental-between)
        if (flags.containsKey("options")) {
            JSON.readTree(flags.get("options")).fields()
                    .forEachRemaining(e -> dyn.put(e.getKey(), e.getValue().asText()));
        }
        return dyn.isEmpty() ? t : t.copy(dyn);
    }

    /*
     * dump: one JVM for what difftest needs. For the latest snapshot and then every snapshot
     * in order prints {"snapshot": N|null, "schema": {...}} followed by that read's rows.
     */
    static void dump(Catalog catalog, Identifier id) throws Exception {
        FileStoreTable base = (FileStoreTable) catalog.getTable(id);
        List<Long> ids = new ArrayList<>();
        Map<Long, String> kinds = new HashMap<>();
        Iterator<Snapshot> it = base.snapshotManager().snapshots();
        while (it.hasNext()) {
            Snapshot s = it.next();
            ids.add(s.id());
            kinds.put(s.id(), s.commitKind().name());
        }
        ids.add(0, null);
        for (Long snap : ids) {
            Map<String, String> flags = new HashMap<>();
            if (snap != null) {
                flags.put("snapshot", String.valueOf(snap));
            }
            ObjectNode head = NF.objectNode();
            if (snap == null) {
                head.putNull("snapshot");
            } else {
                head.put("snapshot", snap);
                head.put("commit_kind", kinds.get(snap));
            }
            head.set("schema", schemaJson((FileStoreTable) tableAt(catalog, id, flags)));
            System.out.println(head.toString());
            System.out.flush();
            read(catalog, id, flags);
        }
    }

    static void read(Catalog catalog, Identifier id, Map<String, String> flags) throws Exception {
        Table t = tableAt(catalog, id, flags);
        RowType rt = t.rowType();
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < rt.getFieldCount(); i++) {
            getters.add(InternalRow.createFieldGetter(rt.getTypeAt(i), i));
        }
        PrintWriter out = new PrintWriter(new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16));
        // --where: one [field, op, literal], or a list of them (each result after a
        // "# <predicate>" line)
        List<JsonNode> filters = new ArrayList<>();
        JsonNode w = flags.containsKey("where") ? JSON.readTree(flags.get("where")) : null;
        if (w != null && w.size() > 0 && w.get(0).isArray()) {
            w.forEach(filters::add);
        } else {
            filters.add(w);
        }
        for (JsonNode f : filters) {
            ReadBuilder rb = t.newReadBuilder();
            if (f != null) {
                rb.withFilter(where(rt, f));
                if (filters.size() > 1) {
                    out.println("# " + f.toString());
                }
            }
            try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
                boolean kinds = flags.containsKey("kinds");
                reader.forEachRemaining(row -> {
                    ArrayNode a = NF.arrayNode();
                    // --kinds 1: each row starts with its row kind (+I/-U/+U/-D)
                    if (kinds) {
                        a.add(row.getRowKind().shortString());
                    }
                    for (int i = 0; i < getters.size(); i++) {
                        a.add(encode(rt.getTypeAt(i), getters.get(i).getFieldOrNull(row)));
                    }
                    out.println(a.toString());
                });
            }
        }
        out.flush();
    }

    /**
     * --where '[field, op, literal]' for read: a filter handed to ReadBuilder.withFilter, so
     * that the scan and the reader use statistics and file indexes (the rows are a superset).
     * op: = <> < <= > >= in ("literal" a JSON array), "is null", "is not null".
     */
    static Predicate where(RowType rt, JsonNode w) {
        PredicateBuilder pb = new PredicateBuilder(rt);
        int f = rt.getFieldIndex(w.get(0).asText());
        DataType t = rt.getTypeAt(f);
        String op = w.get(1).asText();
        switch (op) {
            case "is null":
                return pb.isNull(f);
            case "is not null":
                return pb.isNotNull(f);
            case "in":
                List<Object> lits = new ArrayList<>();
                w.get(2).forEach(v -> lits.add(toInternal(t, v)));
                return pb.in(f, lits);
            default:
                break;
        }
        Object lit = toInternal(t, w.get(2));
        switch (op) {
            case "=":
                return pb.equal(f, lit);
            case "<>":
                return pb.notEqual(f, lit);
            case "<":
                return pb.lessThan(f, lit);
            case "<=":
                return pb.lessOrEqual(f, lit);
            case ">":
                return pb.greaterThan(f, lit);
            case ">=":
                return pb.greaterOrEqual(f, lit);
            default:
                throw new IllegalArgumentException("--where: unknown op " + op);
        }
    }

    static JsonNode encode(DataType t, Object v) {
        if (v == null) {
            return NF.nullNode();
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return NF.booleanNode((Boolean) v);
            case TINYINT:
                return NF.numberNode((Byte) v);
            case SMALLINT:
                return NF.numberNode((Short) v);
            case INTEGER:
                return NF.numberNode((Integer) v);
            case BIGINT:
                return NF.numberNode((Long) v);
            case FLOAT:
                return floatNode((Float) v);
            case DOUBLE:
                return doubleNode((Double) v);
            case DECIMAL:
                return NF.textNode(((Decimal) v).toBigDecimal()
                        .setScale(((DecimalType) t).getScale(), RoundingMode.UNNECESSARY).toPlainString());
            case CHAR:
            case VARCHAR:
                return NF.textNode(v.toString());
            case BINARY:
            case VARBINARY:
                return NF.textNode(hex((byte[]) v));
            case DATE:
                return NF.textNode(LocalDate.ofEpochDay((Integer) v).toString());
            case TIME_WITHOUT_TIME_ZONE: {
                LocalTime lt = LocalTime.ofNanoOfDay((Integer) v * 1_000_000L);
                return NF.textNode(fmtTime(lt, ((TimeType) t).getPrecision()));
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return NF.textNode(fmtTs(((Timestamp) v).toLocalDateTime(), ((TimestampType) t).getPrecision()));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return NF.textNode(fmtTs(((Timestamp) v).toLocalDateTime(),
                        ((LocalZonedTimestampType) t).getPrecision()) + "Z");
            case ARRAY: {
                DataType et = ((ArrayType) t).getElementType();
                InternalArray arr = (InternalArray) v;
                InternalArray.ElementGetter g = InternalArray.createElementGetter(et);
                ArrayNode a = NF.arrayNode();
                for (int i = 0; i < arr.size(); i++) {
                    a.add(encode(et, g.getElementOrNull(arr, i)));
                }
                return a;
            }
            case MAP:
            case MULTISET: {
                DataType kt;
                DataType vt;
                if (t instanceof MapType) {
                    kt = ((MapType) t).getKeyType();
                    vt = ((MapType) t).getValueType();
                } else {
                    kt = ((org.apache.paimon.types.MultisetType) t).getElementType();
                    vt = DataTypes.INT().notNull();
                }
                InternalMap m = (InternalMap) v;
                InternalArray ka = m.keyArray();
                InternalArray va = m.valueArray();
                InternalArray.ElementGetter kg = InternalArray.createElementGetter(kt);
                InternalArray.ElementGetter vg = InternalArray.createElementGetter(vt);
                ArrayNode a = NF.arrayNode();
                for (int i = 0; i < m.size(); i++) {
                    ArrayNode pair = NF.arrayNode();
                    pair.add(encode(kt, kg.getElementOrNull(ka, i)));
                    pair.add(encode(vt, vg.getElementOrNull(va, i)));
                    a.add(pair);
                }
                return a;
            }
            case ROW: {
                RowType rt = (RowType) t;
                InternalRow r = (InternalRow) v;
                ObjectNode o = NF.objectNode();
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    Object fv = InternalRow.createFieldGetter(rt.getTypeAt(i), i).getFieldOrNull(r);
                    o.set(rt.getFields().get(i).name(), encode(rt.getTypeAt(i), fv));
                }
                return o;
            }
            default:
                return NF.textNode(String.valueOf(v));
        }
    }

    static String fmtTs(LocalDateTime ldt, int p) {
        String date = ldt.toLocalDate().toString();
        return date + "T" + fmtTime(ldt.toLocalTime(), p);
    }

    static String fmtTime(LocalTime lt, int p) {
        String s = String.format("%02d:%02d:%02d", lt.getHour(), lt.getMinute(), lt.getSecond());
        if (p > 0) {
            String nanos = String.format("%09d", lt.getNano());
            s += "." + nanos.substring(0, Math.min(p, 9));
        }
        return s;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return sb.toString();
    }

    /** Shortest decimal that round-trips (JDK 17's Double.toString is not always shortest). */
    static JsonNode doubleNode(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return NF.textNode(Double.isNaN(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"));
        }
        if (d == 0) {
            return NF.rawValueNode(new RawValue(1 / d < 0 ? "-0" : "0"));
        }
        BigDecimal exact = new BigDecimal(d);
        for (int p = 1; p <= 17; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (r.doubleValue() == d) {
                return pgNumber(r);
            }
        }
        return NF.numberNode(d);
    }

    /** PostgreSQL float style: plain for exponents -4..14, else d.ddde+XX (like "1e+300"). */
    static JsonNode pgNumber(BigDecimal r) {
        r = r.stripTrailingZeros();
        int e = r.precision() - r.scale() - 1;
        if (e >= -4 && e < 15) {
            return NF.rawValueNode(new RawValue(r.toPlainString()));
        }
        String digits = r.unscaledValue().abs().toString();
        StringBuilder sb = new StringBuilder();
        if (r.signum() < 0) {
            sb.append('-');
        }
        sb.append(digits.charAt(0));
        if (digits.length() > 1) {
            sb.append('.').append(digits, 1, digits.length());
        }
        sb.append('e').append(e < 0 ? '-' : '+');
        int ae = Math.abs(e);
        if (ae < 10) {
            sb.append('0');
        }
        sb.append(ae);
        return NF.rawValueNode(new RawValue(sb.toString()));
    }

    static JsonNode floatNode(float f) {
        if (Float.isNaN(f) || Float.isInfinite(f)) {
            return NF.textNode(Float.isNaN(f) ? "NaN" : (f > 0 ? "Infinity" : "-Infinity"));
        }
        if (f == 0) {
            return NF.rawValueNode(new RawValue(1 / f < 0 ? "-0" : "0"));
        }
        BigDecimal exact = new BigDecimal(f);
        for (int p = 1; p <= 9; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (r.floatValue() == f) {
                return pgNumber(r);
            }
        }
        return NF.numberNode(new BigDecimal(f));
    }

    // ------------------------------------------------------------------ metadata

    static void snapshots(Catalog catalog, Identifier id) throws Exception {
        FileStoreTable t = (FileStoreTable) catalog.getTable(id);
        ArrayNode a = NF.arrayNode();
        Iterator<Snapshot> it = t.snapshotManager().snapshots();
        while (it.hasNext()) {
            Snapshot s = it.next();
            ObjectNode o = NF.objectNode();
            o.put("id", s.id());
            o.put("schema_id", s.schemaId());
            o.put("commit_kind", s.commitKind().name());
            o.put("total_record_count", s.totalRecordCount());
            o.put("delta_record_count", s.deltaRecordCount());
            o.put("time_millis", s.timeMillis());
            a.add(o);
        }
        ObjectNode tags = NF.objectNode();
        for (Map.Entry<Snapshot, List<String>> e : t.tagManager().tags().entrySet()) {
            for (String name : e.getValue()) {
                tags.put(name, e.getKey().id());
            }
        }
        ObjectNode out = NF.objectNode();
        out.set("snapshots", a);
        out.set("tags", tags);
        System.out.println(out.toString());
    }

    static void files(Catalog catalog, Identifier id, Map<String, String> flags) throws Exception {
        Table t = tableAt(catalog, id, flags);
        RowType partType = ((FileStoreTable) t).schema().logicalPartitionType();
        ArrayNode a = NF.arrayNode();
        for (Split s : t.newReadBuilder().newScan().plan().splits()) {
            DataSplit ds = (DataSplit) s;
            for (DataFileMeta f : ds.dataFiles()) {
                ObjectNode o = NF.objectNode();
                o.set("partition", encode(partType, ds.partition()));
                o.put("bucket", ds.bucket());
                o.put("file_name", f.fileName());
                o.put("level", f.level());
                o.put("row_count", f.rowCount());
                o.put("file_size", f.fileSize());
                o.put("schema_id", f.schemaId());
                o.put("min_sequence_number", f.minSequenceNumber());
                o.put("max_sequence_number", f.maxSequenceNumber());
                o.put("has_deletion_vector", ds.deletionFiles().isPresent()
                        && ds.deletionFiles().get().get(ds.dataFiles().indexOf(f)) != null);
                a.add(o);
            }
        }
        System.out.println(a.toString());
    }

    static void schema(Catalog catalog, Identifier id, Map<String, String> flags) throws Exception {
        System.out.println(schemaJson((FileStoreTable) tableAt(catalog, id, flags)).toString());
    }

    static ObjectNode schemaJson(FileStoreTable t) {
        TableSchema s = t.schema();
        ObjectNode o = NF.objectNode();
        o.put("schema_id", s.id());
        ArrayNode cols = NF.arrayNode();
        for (DataField f : s.fields()) {
            ObjectNode c = NF.objectNode();
            c.put("name", f.name());
            c.put("type", f.type().toString());
            cols.add(c);
        }
        o.set("columns", cols);
        o.set("primary_keys", JSON.valueToTree(s.primaryKeys()));
        o.set("partition_keys", JSON.valueToTree(s.partitionKeys()));
        o.set("options", JSON.valueToTree(s.options()));
        return o;
    }

    // ------------------------------------------------------------------ benchmark data

    /*
     * Writes <rows> rows in <commits> commits into an existing table with the columns
     * (id BIGINT, a INT, b BIGINT, c DOUBLE, d STRING, e DATE, f DECIMAL(12,2)).
     * Values are a deterministic function of (seed, id) so any reader can recompute them.
     */
    static void genBench(Catalog catalog, Identifier id, long rows, int commits, long seed) throws Exception {
        Table table = catalog.getTable(id);
        long per = (rows + commits - 1) / commits;
        long next = 0;
        String[] words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
        for (int c = 0; c < commits && next < rows; c++) {
            long end = Math.min(rows, next + per);
            long t0 = System.nanoTime();
            BatchWriteBuilder wb = table.newBatchWriteBuilder();
            try (BatchTableWrite w = wb.newWrite(); BatchTableCommit cm = wb.newCommit()) {
                Random rnd = new Random(seed * 1_000_003L + c);
                GenericRow row = new GenericRow(7);
                for (long i = next; i < end; i++) {
                    row.setField(0, i);
                    row.setField(1, (int) (i % 1000));
                    row.setField(2, rnd.nextLong() % 1_000_000_000L);
                    row.setField(3, rnd.nextInt(10_000_000) / 100.0);
                    row.setField(4, BinaryString.fromString(words[(int) (i % words.length)] + (i % 97)));
                    row.setField(5, (int) (18_000 + (i % 3650)));
                    row.setField(6, Decimal.fromUnscaledLong(rnd.nextInt(100_000_000), 12, 2));
                    w.write(row);
                }
                cm.commit(w.prepareCommit());
            }
            System.err.printf("commit %d: rows %d..%d in %.1fs%n", c + 1, next, end - 1,
                    (System.nanoTime() - t0) / 1e9);
            next = end;
        }
    }

    private Oracle() {
    }
}

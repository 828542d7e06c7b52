/*
 * OrcIndexDump.java <file.orc>...
 *   What Apache ORC's own reader (1.9, shaded in paimon-bundle) sees of a
 *   file's dictionaries and bloom filters, one line each, for comparing our
 *   ORC files with Java's (write_orc_check.sh): per stripe and column the
 *   encoding kind, dictionary size and bloom encoding; the row index stride
 *   and per stripe and column the number of row index entries; per row group
 *   of every column with BLOOM_FILTER_UTF8 its hash count and a digest of its
 *   bits. Run with the oracle's classpath: java -cp <cp> OrcIndexDump.java f
 */
import java.security.MessageDigest;
import java.util.HexFormat;

import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.format.orc.OrcReaderFactory;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.shade.org.apache.orc.OrcProto;
import org.apache.paimon.shade.org.apache.orc.Reader;
import org.apache.paimon.shade.org.apache.orc.StripeInformation;
import org.apache.paimon.shade.org.apache.orc.impl.OrcIndex;
import org.apache.paimon.shade.org.apache.orc.impl.RecordReaderImpl;

public class OrcIndexDump {
  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration(false);
    for (String f : args) {
      // as Paimon opens ORC files (its patched ORC reads through its FileIO)
      Reader reader = OrcReaderFactory.createReader(conf, LocalFileIO.create(),
          new org.apache.paimon.fs.Path(f), null);
      RecordReaderImpl rows = (RecordReaderImpl) reader.rows(new Reader.Options());
      int ncols = reader.getSchema().getMaximumId() + 1;
      boolean[] all = new boolean[ncols];
      java.util.Arrays.fill(all, true);
      int s = 0;
      System.out.println("row index stride " + reader.getRowIndexStride());
      for (StripeInformation stripe : reader.getStripes()) {
        OrcProto.StripeFooter footer = rows.readStripeFooter(stripe);
        for (int c = 0; c < footer.getColumnsCount(); c++) {
          OrcProto.ColumnEncoding e = footer.getColumns(c);
          System.out.println("stripe " + s + " column " + c + " " + e.getKind() +
              " dictionary " + e.getDictionarySize() + " bloom " + e.getBloomEncoding());
        }
        OrcIndex index = rows.readRowIndex(s, all, all);
        OrcProto.BloomFilterIndex[] blooms = index.getBloomFilterIndex();
        for (int c = 0; c < ncols; c++)
          System.out.println("stripe " + s + " column " + c + " row index entries " +
              (index.getRowGroupIndex()[c] == null ? -1 : index.getRowGroupIndex()[c].getEntryCount()));
        for (int c = 0; c < ncols; c++) {
          if (blooms[c] == null)
            continue;
          for (int g = 0; g < blooms[c].getBloomFilterCount(); g++) {
            OrcProto.BloomFilter b = blooms[c].getBloomFilter(g);
            byte[] d = MessageDigest.getInstance("SHA-1").digest(b.getUtf8Bitset().toByteArray());
            System.out.println("stripe " + s + " column " + c + " group " + g + " " +
                index.getBloomFilterKinds()[c] + " k " + b.getNumHashFunctions() + " bits " +
                b.getUtf8Bitset().size() * 8 + " " + HexFormat.of().formatHex(d));
          }
        }
        s++;
      }
      rows.close();
    }
  }
}

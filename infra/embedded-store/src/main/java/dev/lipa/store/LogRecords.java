package dev.lipa.store;

import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The write-ahead log's record format: each record is its length, a CRC-32C of what follows, its sequence number and a
 * BSON document naming the database ({@code db}), the collection ({@code c}), the document's {@code _id} ({@code id})
 * and its new state ({@code doc}, absent when it was removed). A segment's records are numbered on from its name; the
 * first record that is not the next one (zeros, a record cut short or damaged, or an older record) ends it.
 */
final class LogRecords {

  /** A change read back from the log: {@code document} is the document's new state, or null when it was removed. */
  record Change(long sequence, String database, String collection, Object id, Document document) {
  }

  /** A record larger than this (a document is at most 16 MiB) can only be a damaged length. */
  private static final int MAX_RECORD = 17 << 20;

  private LogRecords() {
  }

  /** The BSON body of a change; the caller releases it. */
  static ByteBuf body(String database, String collection, Object id, Document document) {
    Document record = new Document("db", database).append("c", collection)
        .append("id", id instanceof Missing ? null : id);
    if (document != null) {
      record.append("doc", document);
    }
    ByteBuf body = Unpooled.buffer(256);
    try {
      BsonEncoder.encodeDocument(record, body);
      return body;
    } catch (RuntimeException e) {
      body.release();
      throw e;
    }
  }

  /** Writes the record of {@code body} numbered {@code sequence} to {@code out}; returns its size in bytes. */
  static int write(ByteBuf out, long sequence, ByteBuf body) {
    CRC32C crc = new CRC32C();
    ByteBuffer sequenceBytes = ByteBuffer.allocate(Long.BYTES).putLong(0, sequence);
    crc.update(sequenceBytes);
    crc.update(body.nioBuffer());
    int length = Long.BYTES + body.readableBytes();
    out.writeInt(length).writeInt((int) crc.getValue()).writeLong(sequence).writeBytes(body);
    return 8 + length;
  }

  /**
   * Reads one segment's records in order, from {@code first} on, up to the first that is not the next one, and returns
   * the last one's sequence number ({@code first - 1} when there is none).
   */
  static long read(Path segmentFile, long first, Consumer<Change> replay) {
    long last = first - 1;
    try (InputStream in = Files.newInputStream(segmentFile);
        DataInputStream records = new DataInputStream(new BufferedInputStream(in, 1 << 16))) {
      while (true) {
        int length = records.readInt();
        if (length < Long.BYTES + 5 || length > MAX_RECORD) {
          return last; // zeros where no record was written yet, or a length cut short or damaged
        }
        int crc = records.readInt();
        byte[] bytes = new byte[length];
        records.readFully(bytes);
        CRC32C check = new CRC32C();
        check.update(bytes);
        ByteBuffer record = ByteBuffer.wrap(bytes);
        if ((int) check.getValue() != crc || record.getLong() != last + 1) {
          return last; // cut short or damaged, or a record from the segment's earlier use
        }
        Document body = BsonDecoder.decodeBson(Unpooled.wrappedBuffer(record));
        last++;
        replay.accept(new Change(last, (String) body.get("db"), (String) body.get("c"), body.get("id"),
            (Document) body.get("doc")));
      }
    } catch (EOFException end) {
      return last;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the store's write-ahead log " + segmentFile, e);
    }
  }
}

package dev.lipa.store;

import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collection;
import java.util.Map;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * How the on-disk store writes a document into its H2 file: as BSON, with the same encoder and decoder that carry
 * documents over the wire. mongo-java-server leaves the values of its H2 maps to H2's generic type, which falls back to
 * Java serialisation for a document; profiles of the platform on the H2 store had {@code ObjectOutputStream} and
 * {@code ObjectInputStream} as their top frames. BSON holds every value a document can carry (the wire protocol
 * brought it in), is a fraction of the size, and is read and written several times faster.
 *
 * <p>A file written with Java-serialised documents is converted once, when the store opens it
 * ({@link StoreBackends#h2}).
 */
final class BsonDocumentType extends BasicDataType<Document> {

  static final BsonDocumentType INSTANCE = new BsonDocumentType();

  private BsonDocumentType() {
  }

  @Override
  public void write(WriteBuffer buffer, Document document) {
    ByteBuf bson = BsonScratch.take();
    BsonEncoder.encodeDocument(document, bson);
    BsonScratch.copyTo(bson, buffer);
  }

  @Override
  public Document read(ByteBuffer buffer) {
    // a BSON document starts with its own length (little-endian int32, the length field included)
    int length = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt();
    ByteBuffer slice = buffer.slice(buffer.position(), length);
    buffer.position(buffer.position() + length);
    return BsonDecoder.decodeBson(Unpooled.wrappedBuffer(slice));
  }

  /** H2 sizes its page cache and splits pages by this estimate of the object's heap footprint. */
  @Override
  public int getMemory(Document document) {
    return 48 + estimate(document);
  }

  private static int estimate(Object value) {
    if (value instanceof Map<?, ?> map) {
      int size = 64;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        size += 40 + estimate(entry.getKey()) + estimate(entry.getValue());
      }
      return size;
    }
    if (value instanceof Collection<?> values) {
      int size = 40;
      for (Object element : values) {
        size += 8 + estimate(element);
      }
      return size;
    }
    if (value instanceof CharSequence text) {
      return 48 + text.length();
    }
    if (value instanceof byte[] bytes) {
      return 16 + bytes.length;
    }
    return 24;
  }

  @Override
  public Document[] createStorage(int size) {
    return new Document[size];
  }
}

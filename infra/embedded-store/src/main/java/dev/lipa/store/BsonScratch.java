package dev.lipa.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.h2.mvstore.WriteBuffer;

/**
 * The buffer a thread encodes BSON into before H2 copies it into the page it is saving. H2's pages are copy-on-write:
 * saving a page writes every entry it holds, not only the one that changed, so on the on-disk store each payment's few
 * statements re-encode hundreds of documents and index keys at their commits. With a fresh buffer (and, for a key, a
 * document of its values) per entry, that was most of the store's allocation, and the store spent about a third of
 * its CPU in young collections (docs/performance.md, "The on-disk store's garbage"). One buffer per thread is reused;
 * one grown past {@value #KEEP} bytes by a large document is let go after that document, so a rare large write does
 * not pin its size for the thread's life.
 */
final class BsonScratch {

  static final int KEEP = 1 << 20;
  private static final int INITIAL = 4096;
  private static final ThreadLocal<ByteBuf> BUFFERS = ThreadLocal.withInitial(() -> Unpooled.buffer(INITIAL));

  private BsonScratch() {
  }

  /** This thread's buffer, emptied: encode into it, then {@link #copyTo}. Not reentrant. */
  static ByteBuf take() {
    return BUFFERS.get().clear();
  }

  /** Appends what {@code bson} holds to {@code out}, and lets the buffer go when a large document grew it. */
  static void copyTo(ByteBuf bson, WriteBuffer out) {
    out.put(bson.array(), bson.arrayOffset() + bson.readerIndex(), bson.readableBytes());
    if (bson.capacity() > KEEP) {
      BUFFERS.set(Unpooled.buffer(INITIAL));
    }
  }
}

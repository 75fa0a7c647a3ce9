package dev.lipa.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.RandomAccessStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the H2 file's header after each checkpoint, so that it names the newest chunk. H2 rewrites its header only
 * when it writes a chunk into the middle of the file (and then only now and then); a chunk appended at the end leaves
 * the header naming an old one, and after a crash H2 looks for newer chunks from the end of the file. A checkpoint's
 * chunk holds a second of traffic (megabytes), and a {@code kill -9} while one was being appended left a file that H2
 * opened at its first version, with a header written when the store was new: a second of log could not bring back
 * what a minute of checkpoints had held. With the header naming the last checkpoint's chunk, H2 opens at that chunk or
 * a later complete one.
 *
 * <p>H2 has no public call for it: its own {@code writeStoreHeader} is called through a method handle. If a future H2
 * lacks it, the store says so once at start-up and runs as before.
 */
final class FileHeader {

  private static final Logger log = LoggerFactory.getLogger(FileHeader.class);
  private static final MethodHandle WRITE = find();

  private FileHeader() {
  }

  /** Whether the header can be written (the running H2 has the method). */
  static boolean supported() {
    return WRITE != null;
  }

  /** Writes the header naming the file's last chunk; on the committer's thread, after a commit and before its sync. */
  static void write(MVStore store) {
    FileStore<?> fileStore = store.getFileStore();
    if (WRITE == null || !(fileStore instanceof RandomAccessStore)) {
      return;
    }
    try {
      WRITE.invoke((RandomAccessStore) fileStore);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("could not write the H2 file's header", e);
    }
  }

  private static MethodHandle find() {
    try {
      Method method = RandomAccessStore.class.getDeclaredMethod("writeStoreHeader");
      method.setAccessible(true);
      return MethodHandles.lookup().unreflect(method);
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("this H2 cannot have its file header written after each checkpoint ({}); a crash while a checkpoint is "
          + "written may then open the file at an older version, which the store refuses to start on", e.toString());
      return null;
    }
  }
}

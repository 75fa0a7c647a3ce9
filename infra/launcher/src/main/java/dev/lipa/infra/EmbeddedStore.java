package dev.lipa.infra;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.store.Durability;
import dev.lipa.store.StoreBackends;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The local platform's MongoDB-compatible store (mongo-java-server) as its own process: the H2 backend on disk by
 * default, so data survives a restart, or the memory backend with {@code --memory}.
 *
 * <p>Usage: {@code EmbeddedStore --port 27017 [--data var/store/lipa.mv] [--fsync on|off] [--linger-ms 0]}
 * {@code [--checkpoint-ms 1000] [--threads 64] [--memory] [--host 127.0.0.1]}. On H2 a write is answered only once the
 * store's write-ahead log beside the file holds it (group commit), so a SIGKILL loses nothing the store answered; with
 * {@code --fsync on} (the default) each group of log records is also forced to the disk, so a power cut loses nothing
 * either. The H2 file itself is committed by a checkpoint every {@code --checkpoint-ms}, and what the log holds after
 * the last checkpoint is applied again when the store opens. A SIGTERM closes the file cleanly. When the store can
 * no longer keep that promise (its H2 writer died, a commit failed, the heap ran out) it prints one line starting with
 * {@code store: FATAL} and halts with status {@value #FATAL_STATUS}, rather than answer some requests and lose others.
 */
public final class EmbeddedStore {

  /** The exit status after a fatal failure of the store. */
  public static final int FATAL_STATUS = 70;

  private EmbeddedStore() {
  }

  public static void main(String[] args) throws Exception {
    int port = 27017;
    String host = "127.0.0.1";
    Path data = Path.of("var", "store", "lipa.mv");
    boolean memory = false;
    boolean fsync = true;
    long lingerMillis = 0;
    long checkpointMillis = Durability.DEFAULT.checkpointEvery().toMillis();
    // every command waits for its commit on the Netty thread that read it: the threads bound how many commands can
    // gather for one commit (Netty's default, two per core, left four writers per commit on this machine)
    int threads = 64;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--host" -> host = args[++i];
        case "--data" -> data = Path.of(args[++i]);
        case "--memory" -> memory = true;
        case "--fsync" -> fsync = onOff(args[++i]);
        case "--linger-ms" -> lingerMillis = Long.parseLong(args[++i]);
        case "--checkpoint-ms" -> checkpointMillis = Long.parseLong(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    MongoBackend backend;
    if (memory) {
      backend = StoreBackends.memory();
    } else {
      Files.createDirectories(data.toAbsolutePath().getParent());
      backend = StoreBackends.h2(data, new Durability(fsync, Duration.ofMillis(lingerMillis),
          Duration.ofMillis(checkpointMillis)), EmbeddedStore::halt);
    }
    // counts write statements per database and reports them in serverStatus, for ./platform bench
    MongoServer server = new MongoServer(new CountingStoreBackend(backend));
    server.bind(new InetSocketAddress(host, port), 1, threads);
    System.out.printf("store ready on %s:%d (%s)%n", host, port,
        memory ? "memory" : "h2 " + data.toAbsolutePath() + ", fsync " + (fsync ? "on" : "off"));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("store stopping");
      server.shutdown();
      System.out.println("store stopped");
      stopped.countDown();
    }));
    stopped.await();
  }

  private static boolean onOff(String value) {
    return switch (value) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new IllegalArgumentException("--fsync takes on or off, not " + value);
    };
  }

  /**
   * Ends the process at once, without the shutdown hook (a clean close would commit through the store that just
   * failed): the stack trace for the record, then the one line the launcher shows.
   */
  private static void halt(String line, Throwable cause) {
    try {
      cause.printStackTrace();
      System.err.println(line);
      System.err.flush();
    } finally {
      Runtime.getRuntime().halt(FATAL_STATUS);
    }
  }
}

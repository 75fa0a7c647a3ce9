package dev.lipa.infra;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.infra.bench.CountingStoreBackend;
import dev.lipa.store.StoreBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The local platform's MongoDB-compatible store (mongo-java-server) as its own process: the H2 backend on disk by
 * default, so data survives a restart, or the memory backend with {@code --memory}.
 *
 * <p>Usage: {@code EmbeddedStore --port 27017 [--data var/store/lipa.mv] [--memory] [--host 127.0.0.1]}. A SIGTERM
 * closes the H2 file cleanly; a SIGKILL can lose about the last second of writes (a development store).
 */
public final class EmbeddedStore {

  private EmbeddedStore() {
  }

  public static void main(String[] args) throws Exception {
    int port = 27017;
    String host = "127.0.0.1";
    Path data = Path.of("var", "store", "lipa.mv");
    boolean memory = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--host" -> host = args[++i];
        case "--data" -> data = Path.of(args[++i]);
        case "--memory" -> memory = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    MongoBackend backend;
    if (memory) {
      backend = StoreBackends.memory();
    } else {
      Files.createDirectories(data.toAbsolutePath().getParent());
      backend = StoreBackends.h2(data);
    }
    // counts write statements per database and reports them in serverStatus, for ./platform bench
    MongoServer server = new MongoServer(new CountingStoreBackend(backend));
    server.bind(host, port);
    System.out.printf("store ready on %s:%d (%s)%n", host, port, memory ? "memory" : "h2 " + data.toAbsolutePath());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("store stopping");
      server.shutdown();
      System.out.println("store stopped");
      stopped.countDown();
    }));
    stopped.await();
  }
}

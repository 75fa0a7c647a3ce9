package dev.lipa.common.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in front of the shared store that a test can {@link #cut()} (every open connection dropped, new ones
 * closed as soon as they arrive) and {@link #restore()}: the store fails under a running service as it would when its
 * server or the network goes away, while the data stays. One per test JVM ({@link #shared()}), started on first use;
 * a Spring context reaches the store through it with {@link StoreProxyInitializer}.
 */
public final class StoreProxy {

  private static StoreProxy shared;

  private final ServerSocket server;
  private final InetSocketAddress store;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;

  private StoreProxy(InetSocketAddress store) {
    this.store = store;
    this.server = StoreRelays.listen();
    Thread.ofVirtual().name("store-proxy").start(this::accept);
  }

  /** The proxy in front of {@link SharedInfra#mongoUri()}. */
  public static synchronized StoreProxy shared() {
    if (shared == null) {
      shared = new StoreProxy(StoreRelays.sharedStore());
    }
    return shared;
  }

  /** The connection string through the proxy; server selection gives up after {@code serverSelectionTimeout}. */
  public String mongoUri(Duration serverSelectionTimeout) {
    return StoreRelays.mongoUri(server.getLocalPort(), serverSelectionTimeout);
  }

  /** Drops every connection to the store and refuses new ones until {@link #restore()}. */
  public void cut() {
    cut = true;
    open.forEach(StoreRelays::closeQuietly);
    open.clear();
  }

  public void restore() {
    cut = false;
  }

  public boolean isCut() {
    return cut;
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return;
      }
      if (cut) {
        StoreRelays.closeQuietly(client);
        continue;
      }
      Thread.ofVirtual().start(() -> relay(client));
    }
  }

  private void relay(Socket client) {
    Socket upstream = StoreRelays.connect(store, client);
    if (upstream == null) {
      return;
    }
    open.add(client);
    open.add(upstream);
    if (cut) { // cut while this connection was being set up
      StoreRelays.closeQuietly(client);
      StoreRelays.closeQuietly(upstream);
      return;
    }
    Thread.ofVirtual().start(() -> pipe(client, upstream));
    pipe(upstream, client);
  }

  private void pipe(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the other side closed, or the proxy was cut
    } finally {
      open.remove(from);
      open.remove(to);
      StoreRelays.closeQuietly(from);
      StoreRelays.closeQuietly(to);
    }
  }

}

package dev.lipa.common.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;

/**
 * What the relays in front of the shared store ({@link StoreProxy}, {@link LostAnswerProxy}) have in common: where the
 * store is, a loopback listening socket, the connection string through a relay, and the connection to the store made
 * for each client. Each relay keeps its own way of passing bytes on.
 */
final class StoreRelays {

  private StoreRelays() {
  }

  /** The address of {@link SharedInfra#mongoUri()}'s store. */
  static InetSocketAddress sharedStore() {
    URI uri = URI.create(SharedInfra.mongoUri());
    return new InetSocketAddress(uri.getHost(), uri.getPort());
  }

  /** A loopback listening socket on a free port. */
  static ServerSocket listen() {
    try {
      return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The connection string through the relay listening on {@code port}. Server selection gives up after
   * {@code serverSelectionTimeout} (the driver's default is 30 s), so that a store the relay cut makes operations
   * fail within a test's patience.
   */
  static String mongoUri(int port, Duration serverSelectionTimeout) {
    return "mongodb://127.0.0.1:" + port + "/?serverSelectionTimeoutMS=" + serverSelectionTimeout.toMillis()
        + "&connectTimeoutMS=1000";
  }

  /** A connection to the store for one client; null, with the client closed, when the store cannot be reached. */
  static Socket connect(InetSocketAddress store, Socket client) {
    Socket upstream = new Socket();
    try {
      upstream.connect(store, 2000);
      return upstream;
    } catch (IOException e) {
      closeQuietly(client);
      closeQuietly(upstream);
      return null;
    }
  }

  static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}

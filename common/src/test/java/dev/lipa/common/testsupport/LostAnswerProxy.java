package dev.lipa.common.testsupport;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * A TCP relay in front of the shared store that loses the answer of one chosen command: the command reaches the store
 * and is applied, the store's answer is read and thrown away, and the connection is dropped before the client sees
 * it. The client cannot tell a write that was applied from one that was not: what a primary failing right after a
 * write, or a network cut, does to a service. It reads the MongoDB wire protocol's message framing (a little-endian
 * length first) so that it drops exactly one answer and nothing else. Everything else is relayed untouched.
 *
 * <p>One per test JVM ({@link #shared()}); a Spring context reaches the store through it with
 * {@link LostAnswerProxyInitializer}. Arm it with {@link #loseTheAnswerTo}, e.g.
 * {@code loseTheAnswerTo(LostAnswerProxy.command("insert", "stk_pushes"))}.
 */
public final class LostAnswerProxy {

  private static LostAnswerProxy shared;

  private final ServerSocket server;
  private final InetSocketAddress store;
  private final AtomicReference<Predicate<byte[]>> armed = new AtomicReference<>();
  private final AtomicInteger lost = new AtomicInteger();

  private LostAnswerProxy(InetSocketAddress store) throws IOException {
    this.store = store;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("lost-answer-proxy").start(this::accept);
  }

  /** The proxy in front of {@link SharedInfra#mongoUri()}. */
  public static synchronized LostAnswerProxy shared() {
    if (shared == null) {
      URI uri = URI.create(SharedInfra.mongoUri());
      try {
        shared = new LostAnswerProxy(new InetSocketAddress(uri.getHost(), uri.getPort()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return shared;
  }

  /** The connection string through the proxy; server selection gives up after {@code serverSelectionTimeout}. */
  public String mongoUri(Duration serverSelectionTimeout) {
    return "mongodb://127.0.0.1:" + server.getLocalPort() + "/?serverSelectionTimeoutMS="
        + serverSelectionTimeout.toMillis() + "&connectTimeoutMS=1000";
  }

  /**
   * Matches a request that runs {@code command} on {@code collection}: the command document's first element (a BSON
   * string named after the command, whose value is the collection), as the driver writes it.
   */
  public static Predicate<byte[]> command(String command, String collection) {
    byte[] element = bsonString(command, collection);
    return message -> indexOf(message, element) >= 0;
  }

  /** The next request that matches loses its answer (once); replaces a request armed before that has not come. */
  public void loseTheAnswerTo(Predicate<byte[]> request) {
    armed.set(request);
  }

  /** Nothing loses its answer any more. */
  public void disarm() {
    armed.set(null);
  }

  /** How many answers were lost so far. */
  public int lostAnswers() {
    return lost.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return;
      }
      Thread.ofVirtual().start(() -> relay(client));
    }
  }

  private void relay(Socket client) {
    Socket upstream = new Socket();
    try {
      upstream.connect(store, 2000);
    } catch (IOException e) {
      closeQuietly(client);
      closeQuietly(upstream);
      return;
    }
    Connection connection = new Connection(client, upstream);
    Thread.ofVirtual().start(connection::requests);
    connection.answers();
  }

  /** One client connection and its store connection; requests and answers each relayed message by message. */
  private final class Connection {

    private final Socket client;
    private final Socket upstream;
    /** Set when a request whose answer is to be lost went to the store: its answer is the next one. */
    private volatile boolean loseNextAnswer;

    Connection(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    void requests() {
      try (DataInputStream in = new DataInputStream(client.getInputStream());
          OutputStream out = upstream.getOutputStream()) {
        while (true) {
          byte[] message = readMessage(in);
          Predicate<byte[]> request = armed.get();
          if (request != null && request.test(message) && armed.compareAndSet(request, null)) {
            loseNextAnswer = true;
          }
          out.write(message);
          out.flush();
        }
      } catch (IOException e) {
        // the client closed, or the connection was dropped
      } finally {
        close();
      }
    }

    void answers() {
      try (DataInputStream in = new DataInputStream(upstream.getInputStream());
          OutputStream out = client.getOutputStream()) {
        while (true) {
          byte[] message = readMessage(in);
          if (loseNextAnswer) {
            // the store has applied the command and answered: the client never learns it
            lost.incrementAndGet();
            return;
          }
          out.write(message);
          out.flush();
        }
      } catch (IOException e) {
        // the store closed, or the connection was dropped
      } finally {
        close();
      }
    }

    private void close() {
      closeQuietly(client);
      closeQuietly(upstream);
    }
  }

  /** One wire-protocol message: its int32 little-endian length (itself included), then the rest. */
  private static byte[] readMessage(DataInputStream in) throws IOException {
    byte[] header = new byte[4];
    in.readFully(header);
    int length = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (length < 16 || length > 64 * 1024 * 1024) {
      throw new EOFException("not a MongoDB message: length " + length);
    }
    byte[] message = new byte[length];
    System.arraycopy(header, 0, message, 0, 4);
    in.readFully(message, 4, length - 4);
    return message;
  }

  /** A BSON string element: type 0x02, the name as a C string, the value's int32 length, the value, a 0 byte. */
  private static byte[] bsonString(String name, String value) {
    byte[] key = name.getBytes(StandardCharsets.UTF_8);
    byte[] text = value.getBytes(StandardCharsets.UTF_8);
    ByteBuffer element = ByteBuffer.allocate(1 + key.length + 1 + 4 + text.length + 1).order(ByteOrder.LITTLE_ENDIAN);
    element.put((byte) 0x02).put(key).put((byte) 0).putInt(text.length + 1).put(text).put((byte) 0);
    return element.array();
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}

package dev.lipa.common.testsupport;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

/**
 * A TCP relay in front of the shared store that loses the answer of one chosen command: the command reaches the store
 * and is applied, the store's answer is read and thrown away, and the connection is dropped before the client sees
 * it. The client cannot tell a write that was applied from one that was not: what a primary failing right after a
 * write, or a network cut, does to a service. It reads the MongoDB wire protocol's message framing (a little-endian
 * length first) so that it drops exactly one answer and nothing else. Everything else is relayed untouched.
 *
 * <p>It can also {@link #answerWithDuplicateKey answer a chosen write with a duplicate-key error} (code 11000) in the
 * store's place: what the loser of two concurrent upserts of one document sees on a real MongoDB (the other writer
 * inserted the document between its filter and its insert), which the single-threaded embedded store never answers
 * on its own. The test stores the winner's document itself.
 *
 * <p>One per test JVM ({@link #shared()}); a Spring context reaches the store through it with
 * {@link LostAnswerProxyInitializer}. Arm it with {@link #loseTheAnswerTo}, e.g.
 * {@code loseTheAnswerTo(LostAnswerProxy.command("insert", "stk_pushes"))}.
 */
public final class LostAnswerProxy {

  private static final int OP_MSG = 2013;
  private static LostAnswerProxy shared;

  private final ServerSocket server;
  private final InetSocketAddress store;
  private final AtomicReference<Predicate<byte[]>> armed = new AtomicReference<>();
  private final AtomicReference<Predicate<byte[]>> duplicateKey = new AtomicReference<>();
  private final AtomicInteger duplicateKeys = new AtomicInteger();
  private final AtomicInteger lost = new AtomicInteger();

  private LostAnswerProxy(InetSocketAddress store) {
    this.store = store;
    this.server = StoreRelays.listen();
    Thread.ofVirtual().name("lost-answer-proxy").start(this::accept);
  }

  /** The proxy in front of {@link SharedInfra#mongoUri()}. */
  public static synchronized LostAnswerProxy shared() {
    if (shared == null) {
      shared = new LostAnswerProxy(StoreRelays.sharedStore());
    }
    return shared;
  }

  /** The connection string through the proxy; server selection gives up after {@code serverSelectionTimeout}. */
  public String mongoUri(Duration serverSelectionTimeout) {
    return StoreRelays.mongoUri(server.getLocalPort(), serverSelectionTimeout);
  }

  /**
   * Matches a request that runs {@code command} on {@code collection}: the command document's first element (a BSON
   * string named after the command, whose value is the collection), as the driver writes it.
   */
  public static Predicate<byte[]> command(String command, String collection) {
    byte[] element = bsonString(command, collection);
    return message -> indexOf(message, element) >= 0;
  }

  /** Matches a request whose bytes hold this text (an id in its filter or document, say): narrows {@link #command}. */
  public static Predicate<byte[]> containing(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return message -> indexOf(message, bytes) >= 0;
  }

  /** The next request that matches loses its answer (once); replaces a request armed before that has not come. */
  public void loseTheAnswerTo(Predicate<byte[]> request) {
    armed.set(request);
  }

  /**
   * The next request that matches never reaches the store and is answered with a duplicate-key error (code 11000), as
   * the store answers the loser of two concurrent upserts (once). The test puts the winner's document in the store.
   */
  public void answerWithDuplicateKey(Predicate<byte[]> request) {
    duplicateKey.set(request);
  }

  /** Nothing loses its answer or gets a duplicate-key answer any more. */
  public void disarm() {
    armed.set(null);
    duplicateKey.set(null);
  }

  /** How many answers were replaced by a duplicate-key error so far. */
  public int duplicateKeyAnswers() {
    return duplicateKeys.get();
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
    Socket upstream = StoreRelays.connect(store, client);
    if (upstream == null) {
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
          Predicate<byte[]> duplicate = duplicateKey.get();
          if (duplicate != null && duplicate.test(message) && duplicateKey.compareAndSet(duplicate, null)) {
            // answered in the store's place; the store never sees it (the driver waits for this answer before it
            // sends anything else on the connection, so nothing interleaves with it)
            toClient(duplicateKeyAnswer(ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN).getInt(4)));
            duplicateKeys.incrementAndGet();
            continue;
          }
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
      try (DataInputStream in = new DataInputStream(upstream.getInputStream())) {
        while (true) {
          byte[] message = readMessage(in);
          if (loseNextAnswer) {
            // the store has applied the command and answered: the client never learns it
            lost.incrementAndGet();
            return;
          }
          toClient(message);
        }
      } catch (IOException e) {
        // the store closed, or the connection was dropped
      } finally {
        close();
      }
    }

    private synchronized void toClient(byte[] message) throws IOException {
      OutputStream out = client.getOutputStream();
      out.write(message);
      out.flush();
    }

    private void close() {
      StoreRelays.closeQuietly(client);
      StoreRelays.closeQuietly(upstream);
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

  /** An OP_MSG answer to the request: the command failed on a unique index, as MongoDB words it. */
  private static byte[] duplicateKeyAnswer(int requestId) {
    BsonDocument error = new BsonDocument("ok", new BsonDouble(0))
        .append("errmsg", new BsonString("E11000 duplicate key error (a concurrent writer inserted it first)"))
        .append("code", new BsonInt32(11000))
        .append("codeName", new BsonString("DuplicateKey"));
    ByteBuffer body = new RawBsonDocument(error, new BsonDocumentCodec()).getByteBuffer().asNIO();
    int length = 16 + 4 + 1 + body.remaining();
    ByteBuffer answer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    answer.putInt(length).putInt(requestId + 1_000_000).putInt(requestId).putInt(OP_MSG);
    answer.putInt(0).put((byte) 0).put(body);
    return answer.array();
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

}

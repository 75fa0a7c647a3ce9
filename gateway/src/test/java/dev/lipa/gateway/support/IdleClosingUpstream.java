package dev.lipa.gateway.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream over a raw socket that keeps connections alive, and closes one that has been idle longer than its
 * keep-alive timeout at the moment the next request arrives on it, without an answer: what a server's idle close does
 * when it crosses a request already on the wire (Tomcat closes a keep-alive connection after 20 s idle). The request
 * was sent, so the client cannot tell whether it was acted on and must not retry a POST. Counts the connections it
 * accepted, the requests it answered and those it dropped that way.
 */
public final class IdleClosingUpstream implements AutoCloseable {

  private final Duration keepAlive;
  private final ServerSocket socket;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger answered = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();

  public IdleClosingUpstream(Duration keepAlive) {
    this.keepAlive = keepAlive;
    try {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread.ofVirtual().start(this::accept);
  }

  public String uri() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  public int connections() {
    return connections.get();
  }

  public int answered() {
    return answered.get();
  }

  public int dropped() {
    return dropped.get();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        connections.incrementAndGet();
        Thread.ofVirtual().start(() -> serve(connection));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket connection) {
    try (connection) {
      InputStream in = new BufferedInputStream(connection.getInputStream());
      OutputStream out = connection.getOutputStream();
      long idleSince = System.nanoTime();
      while (true) {
        String head = readHead(in);
        if (head == null) {
          return;
        }
        readBody(in, head);
        if (System.nanoTime() - idleSince > keepAlive.toNanos()) {
          dropped.incrementAndGet();
          return;
        }
        byte[] body = "{\"upstream\":\"idle-closing\"}".getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        answered.incrementAndGet();
        idleSince = System.nanoTime();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  /** The request line and headers, or null at the end of the stream. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) != -1) {
      head.write(b);
      matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
      if (matched == 4) {
        return head.toString(StandardCharsets.US_ASCII);
      }
    }
    return null;
  }

  private static void readBody(InputStream in, String head) throws IOException {
    String lower = head.toLowerCase(Locale.ROOT);
    if (lower.contains("\r\ntransfer-encoding: chunked")) {
      while (true) {
        int size = Integer.parseInt(readLine(in).split(";")[0].trim(), 16);
        if (size == 0) {
          readLine(in);
          return;
        }
        in.readNBytes(size);
        readLine(in);
      }
    }
    for (String line : lower.split("\r\n")) {
      if (line.startsWith("content-length:")) {
        in.readNBytes(Integer.parseInt(line.substring("content-length:".length()).trim()));
      }
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1 && b != '\n') {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

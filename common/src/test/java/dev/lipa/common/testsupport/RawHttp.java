package dev.lipa.common.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * An HTTP/1.1 client that writes the request target exactly as given (no client library normalises, encodes or
 * refuses it), for tests that try odd spellings of a path: {@code /%61dmin}, {@code /admin;x=1}, backslashes.
 */
public final class RawHttp {

  private RawHttp() {
  }

  /** What came back: the status code and the body as text. */
  public record Answer(int status, String body) {
  }

  /** Sends one request on a fresh connection ({@code Connection: close}) and reads the whole answer. */
  public static Answer send(String host, int port, String method, String target, Map<String, String> headers,
      String body) {
    return send(null, host, port, method, target, headers, body);
  }

  /** {@link #send(String, int, String, String, Map, String)} from a local address of the caller's choosing. */
  public static Answer send(String fromAddress, String host, int port, String method, String target,
      Map<String, String> headers, String body) {
    return send(fromAddress, host, port, method, target, headers, body, Duration.ZERO);
  }

  /**
   * Sends the request's head, waits {@code bodyDelay}, then sends its body: a server that answers and closes before
   * the body arrives has the connection reset under the client, which then fails reading the answer.
   */
  public static Answer sendBodyLate(String host, int port, String method, String target, Map<String, String> headers,
      String body, Duration bodyDelay) {
    return send(null, host, port, method, target, headers, body, bodyDelay);
  }

  private static Answer send(String fromAddress, String host, int port, String method, String target,
      Map<String, String> headers, String body, Duration bodyDelay) {
    try (Socket socket = new Socket()) {
      if (fromAddress != null) {
        socket.bind(new java.net.InetSocketAddress(fromAddress, 0));
      }
      socket.connect(new java.net.InetSocketAddress(host, port), 10_000);
      socket.setSoTimeout(15_000);
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      StringBuilder head = new StringBuilder()
          .append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
          .append("Host: ").append(host).append(':').append(port).append("\r\n")
          .append("Connection: close\r\n");
      headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
      if (body != null) {
        if (headers.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
          head.append("Content-Type: application/json\r\n");
        }
        head.append("Content-Length: ").append(content.length).append("\r\n");
      }
      head.append("\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (!bodyDelay.isZero()) {
        out.flush();
        Thread.sleep(bodyDelay);
      }
      out.write(content);
      out.flush();
      return read(socket.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException("request " + method + " " + target + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static Answer read(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    in.transferTo(all);
    String text = all.toString(StandardCharsets.ISO_8859_1);
    int lineEnd = text.indexOf("\r\n");
    if (lineEnd < 0) {
      throw new IOException("no status line in: " + text);
    }
    String[] statusLine = text.substring(0, lineEnd).split(" ", 3);
    int headEnd = text.indexOf("\r\n\r\n");
    String rawBody = headEnd < 0 ? "" : text.substring(headEnd + 4);
    boolean chunked = text.substring(0, Math.max(headEnd, 0)).toLowerCase().contains("transfer-encoding: chunked");
    String decoded = chunked ? dechunk(rawBody) : rawBody;
    return new Answer(Integer.parseInt(statusLine[1]),
        new String(decoded.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
  }

  private static String dechunk(String chunked) {
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (at < chunked.length()) {
      int lineEnd = chunked.indexOf("\r\n", at);
      if (lineEnd < 0) {
        break;
      }
      String sizeText = chunked.substring(at, lineEnd).split(";")[0].strip();
      int size = sizeText.isEmpty() ? 0 : Integer.parseInt(sizeText, 16);
      if (size == 0) {
        break;
      }
      out.append(chunked, lineEnd + 2, Math.min(chunked.length(), lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    return out.toString();
  }
}

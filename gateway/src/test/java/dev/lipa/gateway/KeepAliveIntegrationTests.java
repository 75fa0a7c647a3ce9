package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;

/**
 * A keep-alive connection keeps being read whatever the order in which its requests finish. A request that arrives
 * while the previous one is still finishing (here: a token seen for the first time, checked off the event loop) waits
 * in Reactor Netty's queue; once that queue drained, the connection was no longer read on Reactor Netty 1.3.7, and the
 * next request waited until its client gave up (found as tests timing out now and then).
 */
class KeepAliveIntegrationTests extends GatewayIntegrationTest {

  private static final int READ_TIMEOUT_MILLIS = 5_000;

  @RepeatedTest(5)
  void answersEveryRequestOfAConnectionWhateverOrderTheyFinishIn() throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(READ_TIMEOUT_MILLIS);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();

      // a token never seen (checked off the event loop) followed at once by a request refused on the event loop
      out.write((get("Bearer " + validToken() + "x") + get(null)).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      List<Integer> first = new ArrayList<>();
      first.add(status(in));
      first.add(status(in));
      // then the next request on the same connection
      out.write(get(null).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      int third = status(in);

      assertThat(first).containsExactly(401, 401);
      assertThat(third).isEqualTo(401);
    }
  }

  private static String get(String authorization) {
    return "GET /api/sandbox/v1/stk/all HTTP/1.1\r\nHost: localhost\r\n"
        + (authorization == null ? "" : "Authorization: " + authorization + "\r\n") + "\r\n";
  }

  /** Reads one response (status line, headers, a Content-Length body) and returns its status. */
  private static int status(InputStream in) throws IOException {
    String head;
    try {
      head = readHead(in);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("no response within " + READ_TIMEOUT_MILLIS + " ms: the connection is no longer read",
          e);
    }
    int length = 0;
    for (String line : head.split("\r\n")) {
      if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
        length = Integer.parseInt(line.substring(15).strip());
      }
    }
    in.readNBytes(length);
    return Integer.parseInt(head.substring(9, 12));
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("connection closed after " + head);
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }
}

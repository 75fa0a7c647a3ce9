package dev.lipa.infra.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection of the load generator (and of the reference payment's callbacks), used by one
 * worker at a time: it writes a request that is already serialised and reads the answer (Content-Length or chunked).
 * Small and cheap on purpose: on a 2-core machine the bench shares the CPU with the system it measures, and the JDK
 * HttpClient cost it several times more per request.
 */
final class Http1Connection implements AutoCloseable {

  /** An answer: status code and body (UTF-8). */
  record Response(int status, String body) {
  }

  /** The peer did not answer within the request timeout. */
  static final class ResponseTimeoutException extends IOException {
    ResponseTimeoutException() {
      super("no answer within the timeout");
    }
  }

  /** The connection could not be opened within the connect timeout. */
  static final class ConnectTimeoutException extends IOException {
    ConnectTimeoutException() {
      super("not connected within the timeout");
    }
  }

  private static final int MAX_HEADER_BYTES = 64 * 1024;
  private static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

  private final InetSocketAddress address;
  private final int connectTimeoutMillis;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  Http1Connection(InetSocketAddress address, int connectTimeoutMillis) {
    this.address = address;
    this.connectTimeoutMillis = connectTimeoutMillis;
  }

  /** Sends the request and waits at most {@code timeoutMillis} for the whole answer; reconnects when needed. */
  Response exchange(byte[] request, int timeoutMillis) throws IOException {
    boolean fresh = socket == null;
    if (fresh) {
      open();
    }
    try {
      socket.setSoTimeout(Math.max(1, timeoutMillis));
      out.write(request);
      out.flush();
      return read();
    } catch (SocketTimeoutException e) {
      close();
      throw new ResponseTimeoutException();
    } catch (IOException e) {
      close();
      if (!fresh && e instanceof EOFException) {
        // the server closed an idle keep-alive connection just before we wrote: once more on a new one
        return exchange(request, timeoutMillis);
      }
      throw e;
    }
  }

  private void open() throws IOException {
    Socket opened = new Socket();
    opened.setTcpNoDelay(true);
    try {
      opened.connect(address, connectTimeoutMillis);
    } catch (SocketTimeoutException e) {
      opened.close();
      throw new ConnectTimeoutException();
    } catch (IOException e) {
      opened.close();
      throw e;
    }
    socket = opened;
    in = new BufferedInputStream(opened.getInputStream(), 16 * 1024);
    out = opened.getOutputStream();
  }

  private Response read() throws IOException {
    String statusLine = line();
    if (!statusLine.startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP/1.x answer: " + statusLine);
    }
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long length = -1;
    boolean chunked = false;
    boolean closeAfter = statusLine.startsWith("HTTP/1.0");
    int headerBytes = 0;
    for (String header = line(); !header.isEmpty(); header = line()) {
      headerBytes += header.length();
      if (headerBytes > MAX_HEADER_BYTES) {
        throw new IOException("headers too large");
      }
      int colon = header.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> length = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> closeAfter = value.equalsIgnoreCase("close");
        default -> { }
      }
    }
    byte[] body;
    if (status == 204 || status == 304 || status < 200) {
      // answers that never have a body (RFC 9112 6.3), whatever their headers say: the bench's callback receiver
      // answers 204 without a Content-Length, and reading "to the end of the connection" would wait for the timeout
      body = new byte[0];
    } else if (chunked) {
      body = chunkedBody();
    } else if (length >= 0) {
      if (length > MAX_BODY_BYTES) {
        throw new IOException("body too large");
      }
      body = in.readNBytes((int) length);
      if (body.length < length) {
        throw new EOFException("body cut short");
      }
    } else {
      body = in.readNBytes(MAX_BODY_BYTES); // no length: the body runs to the end of the connection
      closeAfter = true;
    }
    if (closeAfter) {
      close();
    }
    return new Response(status, new String(body, StandardCharsets.UTF_8));
  }

  private byte[] chunkedBody() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = line();
      int semicolon = sizeLine.indexOf(';');
      int size = Integer.parseInt((semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(), 16);
      if (size == 0) {
        while (!line().isEmpty()) {
          // trailers: ignored
        }
        return body.toByteArray();
      }
      if (body.size() + size > MAX_BODY_BYTES) {
        throw new IOException("body too large");
      }
      byte[] chunk = in.readNBytes(size);
      if (chunk.length < size) {
        throw new EOFException("chunk cut short");
      }
      body.write(chunk);
      line(); // the CRLF after the chunk
    }
  }

  /** One CRLF-terminated line, without the CRLF (ISO-8859-1, as HTTP/1.1 framing is). */
  private String line() throws IOException {
    StringBuilder line = new StringBuilder(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed by the server");
      }
      if (b == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      if (line.length() > MAX_HEADER_BYTES) {
        throw new IOException("line too long");
      }
      line.append((char) b);
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
      socket = null;
      in = null;
      out = null;
    }
  }
}

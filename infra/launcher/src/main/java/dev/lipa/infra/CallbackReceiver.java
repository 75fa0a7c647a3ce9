package dev.lipa.infra;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.LocalTime;
import java.util.concurrent.Executors;

/**
 * A merchant's callback endpoint for trying the platform by hand: prints every request it receives (the webhook
 * headers and the JSON body) and answers 200. Usage: {@code ./platform receiver [port]} (default 9000).
 */
public final class CallbackReceiver {

  private CallbackReceiver() {
  }

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9000;
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", exchange -> {
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      StringBuilder line = new StringBuilder()
          .append(LocalTime.now()).append(' ').append(exchange.getRequestMethod()).append(' ')
          .append(exchange.getRequestURI());
      exchange.getRequestHeaders().forEach((name, values) -> {
        String lower = name.toLowerCase();
        if (lower.startsWith("webhook-") || lower.equals("idempotency-key") || lower.equals("user-agent")) {
          line.append("\n  ").append(lower).append(": ").append(String.join(",", values));
        }
      });
      line.append("\n  ").append(body);
      System.out.println(line);
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    System.out.println("callback receiver listening on http://127.0.0.1:" + port + "/ (Ctrl-C to stop)");
  }
}

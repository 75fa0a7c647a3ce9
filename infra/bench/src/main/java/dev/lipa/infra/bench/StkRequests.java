package dev.lipa.infra.bench;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.LongFunction;

/** The STK push requests the bench sends: to the platform's gateway, and to the reference pipeline. */
final class StkRequests {

  private static final String STK_PATH = "/api/sandbox/v1/stk/new";
  /**
   * The platform's pushes go to a million paying Kenyan numbers in turn (254710000000 to 254710999999, none of them a
   * magic number of the sandbox): collections-service allows a number 3 prompts a minute and 10 an hour, and a number
   * comes round again only after a million pushes.
   */
  private static final long FIRST_PHONE = 254_710_000_000L;
  private static final int PHONES = 1_000_000;

  private StkRequests() {
  }

  /**
   * Pushes through the gateway, each with a token of the pool and a number of its own; the request id of each 201 is
   * put in {@code acceptedStep} with the index of its step, for the reconciliation.
   */
  static OpenLoad.Target platform(String gatewayUrl, TokenPool tokens, String callbackUrl,
      Map<String, Integer> acceptedStep) {
    URI uri = URI.create(gatewayUrl + STK_PATH);
    return throughGateway(uri, acceptedStep, sequence -> post(uri, "Authorization: Bearer " + tokens.next() + "\r\n",
        body(Long.toString(FIRST_PHONE + Math.floorMod(sequence, PHONES)), callbackUrl)));
  }

  /**
   * A target at {@code uri} (the gateway's, or the reference payment's) whose requests {@code request} writes, and
   * whose 201 answers put their {@code requestId} in {@code acceptedStep} with the index of their step.
   */
  static OpenLoad.Target throughGateway(URI uri, Map<String, Integer> acceptedStep, LongFunction<byte[]> request) {
    InetSocketAddress address = address(uri);
    return new OpenLoad.Target() {
      @Override
      public InetSocketAddress address() {
        return address;
      }

      @Override
      public byte[] request(long sequence) {
        return request.apply(sequence);
      }

      @Override
      public void accepted(String responseBody, int step) {
        String requestId = Json.field(responseBody, "requestId");
        if (requestId != null) {
          acceptedStep.put(requestId, step);
        }
      }
    };
  }

  /**
   * The same pushes to the reference payment at {@code url} (the same numbers in turn, no token); the request id of
   * each 201 is put in {@code acceptedStep} with the index of its step, for the reference's own reconciliation.
   */
  static OpenLoad.Target reference(String url, String callbackUrl, Map<String, Integer> acceptedStep) {
    URI uri = URI.create(url);
    return throughGateway(uri, acceptedStep,
        sequence -> post(uri, "", body(Long.toString(FIRST_PHONE + Math.floorMod(sequence, PHONES)), callbackUrl)));
  }

  static InetSocketAddress address(URI uri) {
    return new InetSocketAddress(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 80);
  }

  /** A whole HTTP/1.1 JSON POST; {@code headers} are extra header lines, each ending in CRLF. */
  static byte[] post(URI uri, String headers, String body) {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    String head = "POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
        + "\r\nContent-Type: application/json\r\nAccept: application/json\r\n" + headers
        + "Content-Length: " + content.length + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
    byte[] request = Arrays.copyOf(headBytes, headBytes.length + content.length);
    System.arraycopy(content, 0, request, headBytes.length, content.length);
    return request;
  }

  private static String body(String phone, String callbackUrl) {
    return "{\"description\":\"Bench order\",\"phoneNumber\":\"" + phone + "\",\"amount\":10,"
        + "\"accountReference\":\"BENCH\",\"callbackUrl\":\"" + callbackUrl + "\"}";
  }
}

package dev.lipa.gateway.web;

import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.web.Envelope;
import dev.lipa.gateway.routing.RoutePolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway's own answers, as the platform's {@code status}/{@code message}/{@code data} envelope, or, on routes
 * whose metadata says {@code error-shape: checkout}, as the spec's checkout error body
 * ({@code {"message": …, "errors": {}}}). The bodies are serialized once: a refused request costs no JSON work.
 */
@Component
public class Envelopes {

  public static final String DEVICE_ID = "Device-Id";
  /** The largest body {@link #afterBody} reads before a refusal: the proxy's default body limit. */
  static final long DRAINED_BODY_BYTES = 65_536;
  static final Duration DRAIN_WAIT = Duration.ofSeconds(5);

  private final JsonMapper json;
  private final byte[] unauthorized;
  private final byte[] notFound;
  private final byte[] unsupportedMediaType;
  private final byte[] payloadTooLarge;
  private final byte[] missingDeviceId;
  private final byte[] authenticationUnavailable;
  private final byte[] internalError;
  private final Map<String, byte[]> unavailable = new ConcurrentHashMap<>();
  private final Map<HttpStatus, byte[]> byStatus = new ConcurrentHashMap<>();
  private final Map<String, byte[]> messages = new ConcurrentHashMap<>();
  /** The checkout error body of each envelope body above (same message), built on first use. */
  private final Map<byte[], byte[]> checkoutBodies = new ConcurrentHashMap<>();

  public Envelopes(JsonMapper json) {
    this.json = json;
    unauthorized = bytes(HttpStatus.UNAUTHORIZED, InvalidTokenException.PUBLIC_MESSAGE);
    notFound = bytes(HttpStatus.NOT_FOUND, "Not found");
    unsupportedMediaType = bytes(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/json");
    payloadTooLarge = bytes(HttpStatus.CONTENT_TOO_LARGE, "Request body too large");
    missingDeviceId = json.writeValueAsBytes(Envelope.invalid("Missing required header " + DEVICE_ID,
        Map.of(DEVICE_ID, List.of(DEVICE_ID + " header is required"))));
    authenticationUnavailable = bytes(HttpStatus.SERVICE_UNAVAILABLE, "authentication is temporarily unavailable");
    internalError = bytes(HttpStatus.INTERNAL_SERVER_ERROR, "Internal server error");
  }

  public Mono<Void> unauthorized(ServerWebExchange exchange) {
    exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
    return write(exchange, HttpStatus.UNAUTHORIZED, unauthorized);
  }

  public Mono<Void> notFound(ServerWebExchange exchange) {
    return write(exchange, HttpStatus.NOT_FOUND, notFound);
  }

  public Mono<Void> unsupportedMediaType(ServerWebExchange exchange) {
    return write(exchange, HttpStatus.UNSUPPORTED_MEDIA_TYPE, unsupportedMediaType);
  }

  public Mono<Void> payloadTooLarge(ServerWebExchange exchange) {
    return write(exchange, HttpStatus.CONTENT_TOO_LARGE, payloadTooLarge);
  }

  public Mono<Void> missingDeviceId(ServerWebExchange exchange) {
    return write(exchange, HttpStatus.BAD_REQUEST, missingDeviceId);
  }

  public Mono<Void> authenticationUnavailable(ServerWebExchange exchange) {
    return write(exchange, HttpStatus.SERVICE_UNAVAILABLE, authenticationUnavailable);
  }

  /** The upstream service is down, too slow, or its circuit breaker is open. */
  public Mono<Void> serviceUnavailable(ServerWebExchange exchange, String service) {
    byte[] body = unavailable.computeIfAbsent(service,
        s -> bytes(HttpStatus.SERVICE_UNAVAILABLE, s + " is temporarily unavailable"));
    return write(exchange, HttpStatus.SERVICE_UNAVAILABLE, body);
  }

  public Mono<Void> internalError(ServerWebExchange exchange) {
    return write(exchange, HttpStatus.INTERNAL_SERVER_ERROR, internalError);
  }

  /** A path refused by the path rules, with the rule it broke. */
  public Mono<Void> malformedPath(ServerWebExchange exchange, String reason) {
    return message(exchange, HttpStatus.BAD_REQUEST, "Malformed request path: " + reason);
  }

  /** A status with a message of the gateway's own (a constant, never anything the caller sent). */
  public Mono<Void> message(ServerWebExchange exchange, HttpStatus status, String message) {
    byte[] body = messages.computeIfAbsent(status.value() + " " + message, k -> bytes(status, message));
    return write(exchange, status, body);
  }

  /** Any other status, with its standard reason phrase as the message (never an exception's text). */
  public Mono<Void> status(ServerWebExchange exchange, HttpStatus status) {
    return write(exchange, status, byStatus.computeIfAbsent(status, s -> bytes(s, s.getReasonPhrase())));
  }

  /**
   * Every answer of the gateway's own waits for the request's body first, unless the proxy already took it: a small
   * declared body (at most {@link #DRAINED_BODY_BYTES}) is read and dropped, for at most {@link #DRAIN_WAIT}.
   * Answering and closing the connection while the client is still sending its body makes the kernel reset the
   * connection, and a client may then lose the answer it was sent (seen in CI as "Connection reset" instead of a
   * 403). A larger or chunked body is not waited for.
   */
  private Mono<Void> afterBody(ServerWebExchange exchange, Supplier<Mono<Void>> answer) {
    long length = exchange.getRequest().getHeaders().getContentLength();
    if (length <= 0 || length > DRAINED_BODY_BYTES || ServerWebExchangeUtils.isAlreadyRouted(exchange)) {
      return answer.get();
    }
    return exchange.getRequest().getBody()
        .doOnNext(DataBufferUtils::release)
        .then()
        .timeout(DRAIN_WAIT)
        .onErrorResume(e -> Mono.empty())
        .then(Mono.defer(answer));
  }

  private byte[] bytes(HttpStatus status, String message) {
    return json.writeValueAsBytes(Envelope.error(status, message));
  }

  /** The same answer in the checkout error body: the envelope's message and its errors map (empty when none). */
  private byte[] checkoutBody(byte[] envelope) {
    return checkoutBodies.computeIfAbsent(envelope, e -> {
      tools.jackson.databind.JsonNode tree = json.readTree(e);
      Map<String, Object> body = new java.util.LinkedHashMap<>();
      body.put("message", tree.path("message").asString(""));
      body.put("errors", tree.path("errors").isObject() ? tree.path("errors") : Map.of());
      return json.writeValueAsBytes(body);
    });
  }

  private Mono<Void> write(ServerWebExchange exchange, HttpStatus status, byte[] envelope) {
    return afterBody(exchange, () -> send(exchange, status, envelope));
  }

  private Mono<Void> send(ServerWebExchange exchange, HttpStatus status, byte[] envelope) {
    byte[] body = RoutePolicy.checkoutErrors(RoutePolicy.route(exchange)) ? checkoutBody(envelope) : envelope;
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(status);
    HttpHeaders headers = response.getHeaders();
    headers.setContentType(MediaType.APPLICATION_JSON);
    headers.setContentLength(body.length);
    return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
  }
}

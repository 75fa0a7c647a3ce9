package dev.lipa.gateway.rules;

import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.security.BearerTokenGatewayFilter;
import dev.lipa.gateway.web.Envelopes;
import dev.lipa.gateway.web.ErrorResponses;
import java.util.Set;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The spec's header rules and the body size cap, checked after the token (a stranger learns nothing about the
 * rules of a route it may not call):
 * <ol>
 *   <li>{@code Device-Id} on endpoints 17 and 18 (400 with an {@code errors} entry);</li>
 *   <li>a body on POST/PUT/PATCH must be {@code application/json} (415). The spec's reference pages also list
 *       Content-Type on GET endpoints, but a GET has no body to describe, so a GET without it is accepted;</li>
 *   <li>a declared Content-Length over the cap is refused at once (413); a chunked body is counted while it streams
 *       to the service and the request fails with 413 as soon as it passes the cap, never buffered whole.</li>
 * </ol>
 */
@Component
public class RequestRulesGatewayFilter implements GlobalFilter, Ordered {

  private static final String JSON = "application/json";

  private final Envelopes envelopes;
  private final long maxBodyBytes;
  private final Set<String> deviceIdPaths;

  public RequestRulesGatewayFilter(Envelopes envelopes, GatewayProperties properties) {
    this.envelopes = envelopes;
    this.maxBodyBytes = properties.maxBodyBytes();
    this.deviceIdPaths = properties.deviceIdPaths();
  }

  @Override
  public int getOrder() {
    return BearerTokenGatewayFilter.ORDER + 100;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    HttpHeaders headers = request.getHeaders();
    if (!deviceIdPaths.isEmpty() && deviceIdPaths.contains(request.getPath().value())) {
      String deviceId = headers.getFirst(Envelopes.DEVICE_ID);
      if (deviceId == null || deviceId.isBlank()) {
        return envelopes.missingDeviceId(exchange);
      }
    }
    long length = headers.getContentLength();
    boolean streamed = length < 0 && headers.containsHeader(HttpHeaders.TRANSFER_ENCODING);
    boolean hasBody = length > 0 || streamed;
    if (hasBody && carriesEntity(request.getMethod()) && RoutePolicy.jsonBodies(RoutePolicy.route(exchange))
        && !isJson(headers.getFirst(HttpHeaders.CONTENT_TYPE))) {
      return envelopes.unsupportedMediaType(exchange);
    }
    if (length > maxBodyBytes) {
      return envelopes.payloadTooLarge(exchange);
    }
    if (streamed) {
      return chain.filter(exchange.mutate().request(new LimitedBody(request, maxBodyBytes, exchange)).build());
    }
    return chain.filter(exchange);
  }

  private static boolean carriesEntity(HttpMethod method) {
    return method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH;
  }

  /** {@code application/json}, in any case, with or without parameters such as {@code charset}. */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String value = contentType.strip();
    if (!value.regionMatches(true, 0, JSON, 0, JSON.length())) {
      return false;
    }
    if (value.length() == JSON.length()) {
      return true;
    }
    char next = value.charAt(JSON.length());
    return next == ';' || next == ' ' || next == '\t';
  }

  /** A request whose body fails with {@link BodyTooLargeException} once more than {@code limit} bytes went by. */
  private static final class LimitedBody extends ServerHttpRequestDecorator {

    private final long limit;
    private final ServerWebExchange exchange;

    LimitedBody(ServerHttpRequest delegate, long limit, ServerWebExchange exchange) {
      super(delegate);
      this.limit = limit;
      this.exchange = exchange;
    }

    @Override
    public Flux<DataBuffer> getBody() {
      return Flux.defer(() -> {
        long[] seen = {0};
        return getDelegate().getBody().handle((buffer, sink) -> {
          seen[0] += buffer.readableByteCount();
          if (seen[0] > limit) {
            DataBufferUtils.release(buffer);
            exchange.getAttributes().put(ErrorResponses.BODY_TOO_LARGE, Boolean.TRUE);
            sink.error(new BodyTooLargeException(limit));
          } else {
            sink.next(buffer);
          }
        });
      });
    }
  }
}

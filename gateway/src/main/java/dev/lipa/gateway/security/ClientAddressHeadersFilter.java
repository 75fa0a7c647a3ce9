package dev.lipa.gateway.security;

import dev.lipa.common.ratelimit.ClientAddresses;
import java.net.InetSocketAddress;
import java.util.List;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * The gateway is the edge, so it alone decides which client a request comes from and tells the services in
 * {@code X-Forwarded-For}, as one address: its socket peer, or, when the peer is a trusted proxy in front of it (a
 * load balancer, {@code lipa.rate-limits.trusted-proxies}, none by default), the client that proxy named. Whatever
 * {@code X-Forwarded-For} a client sent is never passed on, so no client can pose as another address to the services'
 * limits and audit log (they believe this header because the gateway is their trusted proxy).
 *
 * <p>A header filter of the proxied request, the last one: Spring Cloud Gateway removes every {@code X-Forwarded-*}
 * header of a request from an untrusted peer before this runs, and without this filter the services would see every
 * client as the gateway itself (one shared allowance of failed token requests for the whole platform).
 */
@Component
public class ClientAddressHeadersFilter implements HttpHeadersFilter, Ordered {

  /** Headers that name a client address, besides X-Forwarded-For: removed from every proxied request. */
  static final List<String> CLIENT_CLAIMS = List.of("Forwarded", "X-Real-IP", "True-Client-IP",
      "X-Client-IP", "X-Cluster-Client-IP", "CF-Connecting-IP", "Fastly-Client-IP", "X-Original-Forwarded-For");

  private final ClientAddresses addresses;

  public ClientAddressHeadersFilter(ClientAddresses addresses) {
    this.addresses = addresses;
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
    HttpHeaders output = new HttpHeaders();
    output.putAll(input);
    // the other names clients and proxies give the same claim: nothing behind the gateway reads them today, and none
    // may start to believe one a client wrote (the Daraja receivers accept callbacks by source address)
    for (String claim : CLIENT_CLAIMS) {
      output.remove(claim);
    }
    output.set(ClientAddresses.X_FORWARDED_FOR, client(exchange.getRequest()));
    return output;
  }

  /** The client as this gateway sees it (the original request's peer and header, not the proxied copy's). */
  String client(ServerHttpRequest request) {
    InetSocketAddress remote = request.getRemoteAddress();
    String peer = remote == null || remote.getAddress() == null ? null : remote.getAddress().getHostAddress();
    return addresses.client(peer, request.getHeaders().getOrEmpty(ClientAddresses.X_FORWARDED_FOR));
  }
}

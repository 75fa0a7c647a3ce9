package dev.lipa.common.audit;

import java.time.Instant;
import java.util.Map;

/**
 * One operator call as the audit log keeps it: who ({@code operator}, the name of the token presented, or
 * {@code unauthenticated}), what ({@code method}, the routed {@code path}, the raw {@code query}, the {@code ids} the
 * handler read from the path, the response {@code status}), when ({@code at}, and {@code completedAt}) and from which
 * address ({@code address}, the client behind the trusted proxies; {@code peerAddress}, the socket's peer). Never a
 * body or a header's value: a request or response body may carry a secret (an issued API key's is in its 201).
 *
 * <p>{@code status} and {@code completedAt} are null while the call runs, and stay null when the service stopped
 * before it finished.
 */
public record AuditRecord(String id, Instant at, String operator, String method, String path, String query,
    Map<String, String> ids, Integer status, Instant completedAt, String address, String peerAddress,
    String correlationId, String service) {

  public AuditRecord {
    ids = ids == null ? Map.of() : Map.copyOf(ids);
  }
}

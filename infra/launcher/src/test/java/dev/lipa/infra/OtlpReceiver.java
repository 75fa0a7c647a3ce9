package dev.lipa.infra;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * A trace collector for the system test: a real local HTTP server speaking OTLP over HTTP (protobuf, as the services'
 * OpenTelemetry exporter sends it to {@code LIPA_OTLP_ENDPOINT}), keeping every span it receives.
 */
final class OtlpReceiver implements AutoCloseable {

  static final String PATH = "/v1/traces";

  /** One received span: the service that exported it, its ids, name, kind and attributes. */
  record ReceivedSpan(String service, String traceId, String spanId, String parentSpanId, String name, String kind,
      Map<String, String> attributes) {

    @Override
    public String toString() {
      return service + " " + kind + " \"" + name + "\" " + attributes;
    }
  }

  private final HttpServer server;
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

  private OtlpReceiver(HttpServer server) {
    this.server = server;
  }

  static OtlpReceiver start() {
    try {
      OtlpReceiver receiver = new OtlpReceiver(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0));
      receiver.server.createContext(PATH, receiver::receive);
      receiver.server.start();
      return receiver;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where the services export to. */
  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
  }

  List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  List<ReceivedSpan> trace(String traceId) {
    return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
  }

  private void receive(HttpExchange exchange) throws IOException {
    try (exchange) {
      ExportTraceServiceRequest request;
      try (InputStream body = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
          ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody()) {
        request = ExportTraceServiceRequest.parseFrom(body);
      }
      for (ResourceSpans resource : request.getResourceSpansList()) {
        String service = attributes(resource.getResource().getAttributesList()).getOrDefault("service.name", "?");
        for (ScopeSpans scope : resource.getScopeSpansList()) {
          scope.getSpansList().forEach(span -> spans.add(new ReceivedSpan(service,
              hex(span.getTraceId().toByteArray()), hex(span.getSpanId().toByteArray()),
              hex(span.getParentSpanId().toByteArray()), span.getName(), span.getKind().name(),
              attributes(span.getAttributesList()))));
        }
      }
      byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
      if (answer.length > 0) {
        exchange.getResponseBody().write(answer);
      }
    }
  }

  private static Map<String, String> attributes(List<KeyValue> values) {
    Map<String, String> attributes = new LinkedHashMap<>();
    values.forEach(kv -> attributes.put(kv.getKey(), text(kv.getValue())));
    return attributes;
  }

  private static String text(AnyValue value) {
    return switch (value.getValueCase()) {
      case STRING_VALUE -> value.getStringValue();
      case INT_VALUE -> Long.toString(value.getIntValue());
      case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
      case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
      default -> value.toString();
    };
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

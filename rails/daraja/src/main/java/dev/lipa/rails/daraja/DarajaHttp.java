package dev.lipa.rails.daraja;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The connector's HTTP exchange with Daraja, sorted into what matters for resending: no connection (nothing was
 * sent), lost after sending (timeout, reset: may have been received), or answered.
 */
final class DarajaHttp {

  /** Daraja's answers and callbacks are small; anything larger is not Daraja's. */
  static final int MAX_BODY_CHARS = 64 * 1024;

  static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxNestingDepth(16)
              .maxStringLength(16 * 1024)
              .maxNumberLength(64)
              .build())
          .build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      // amounts keep their digits (1.00 stays 1.00, never a double)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .build();

  /** How an exchange ended. */
  sealed interface Exchange permits Answered, NotConnected, Lost {
  }

  /** Daraja answered; {@code body} is null when the answer was not a JSON object. */
  record Answered(int status, JsonNode body) implements Exchange {
  }

  /** No connection was made: the request was not sent. */
  record NotConnected(String cause) implements Exchange {
  }

  /** The connection was made and the request may have been received: timeout, reset, closed before the answer. */
  record Lost(String cause) implements Exchange {
  }

  /** Daraja's error body ({@code requestId}, {@code errorCode}, {@code errorMessage}); fields null when absent. */
  record ErrorBody(String requestId, String errorCode, String errorMessage) {
  }

  private final HttpClient http;

  DarajaHttp(HttpClient http) {
    this.http = http;
  }

  Exchange post(URI url, String bearer, ObjectNode body, Duration timeout) {
    HttpRequest request = HttpRequest.newBuilder(url)
        .timeout(timeout)
        .header("Authorization", "Bearer " + bearer)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
        .build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Answered(response.statusCode(), readJson(response.body()));
    } catch (HttpConnectTimeoutException | ConnectException e) {
      return new NotConnected(e.getClass().getSimpleName());
    } catch (IOException e) {
      if (e.getCause() instanceof UnresolvedAddressException) {
        return new NotConnected("unresolved address");
      }
      // a timeout after the connection was made, a reset, an answer cut short: the request may have been received
      return new Lost(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Lost("interrupted while waiting for the answer");
    }
  }

  /** The body as a JSON object, or null when it is not one (or too large). */
  static JsonNode readJson(String body) {
    if (body == null || body.isBlank() || body.length() > MAX_BODY_CHARS) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (JacksonException e) {
      return null;
    }
  }

  static ErrorBody errorBody(JsonNode body) {
    if (body == null) {
      return new ErrorBody(null, null, null);
    }
    return new ErrorBody(text(body, "requestId"), text(body, "errorCode"), text(body, "errorMessage"));
  }

  /** A field as text when it is a string or a number, else null. */
  static String text(JsonNode body, String field) {
    JsonNode n = body == null ? null : body.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isString()) {
      return n.stringValue();
    }
    if (n.isNumber()) {
      return n.isIntegralNumber() ? n.bigIntegerValue().toString() : n.decimalValue().toPlainString();
    }
    return null;
  }

  static String join(URI base, String path) {
    String b = base.toString();
    return (b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + path;
  }
}

package dev.lipa.checkout.mpesa;

import dev.lipa.checkout.CheckoutProperties;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The internal call to collections-service that starts an STK push on behalf of a session's organisation:
 * {@code POST <collections>/internal/v1/stk-pushes} with the shared {@code X-Internal-Token}, straight to the service
 * (the gateway does not route /internal). No merchant callback is asked for: checkout learns the outcome from
 * {@code payments.collections.v1}.
 *
 * <p>The client is built from Spring Boot's {@link RestClient.Builder}, so the call is observed like every HTTP call of
 * the platform: a client span, and the {@code traceparent} that makes collections-service's spans part of the
 * checkout's trace.
 */
@Component
public class StkPushClient {

  public static final String PATH = "/internal/v1/stk-pushes";
  public static final String TOKEN_HEADER = "X-Internal-Token";
  private static final Logger log = LoggerFactory.getLogger(StkPushClient.class);

  private final CheckoutProperties.Collections settings;
  private final JsonMapper json;
  private final RestClient client;

  public StkPushClient(CheckoutProperties properties, JsonMapper json, RestClient.Builder builder) {
    this.settings = properties.collections();
    this.json = json;
    JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
        HttpClient.newBuilder().connectTimeout(settings.connectTimeout()).build());
    requests.setReadTimeout(settings.responseTimeout());
    this.client = builder.clone().baseUrl(base()).requestFactory(requests).build();
  }

  /** What collections-service answered: its status and body. */
  private record Answer(int statusCode, String body) {
  }

  /** What collections-service answered. */
  public sealed interface Result {
    /** The push is accepted: the prompt is on its way to the phone. */
    record Accepted(RequestId requestId) implements Result {
    }

    /**
     * The request was refused for its fields (phone number of the wrong country, …) or because the number has had
     * its prompts for now (collections' per-number limit, 429): messages for the customer.
     */
    record Refused(Map<String, List<String>> errors) implements Result {
    }

    /** collections-service could not be reached or failed: nothing was started. */
    record Unavailable(String reason) implements Result {
    }
  }

  /** The push to start. */
  public record Push(OrganisationId organisationId, String phoneNumber, BigDecimal amount, String currencyCode,
      String description, String accountReference, String referenceId, String narration, String customerName) {
  }

  public Result start(Push push) {
    if (settings.internalToken() == null || settings.internalToken().isBlank()) {
      return new Result.Unavailable("lipa.checkout.collections.internal-token is not set");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("organisationId", push.organisationId().value());
    body.put("phoneNumber", push.phoneNumber());
    body.put("amount", push.amount());
    body.put("currencyCode", push.currencyCode());
    body.put("description", push.description());
    body.put("accountReference", push.accountReference());
    body.put("referenceId", push.referenceId());
    body.put("narration", push.narration());
    body.put("customerName", push.customerName());
    Answer response;
    try {
      response = client.post().uri(PATH)
          .contentType(MediaType.APPLICATION_JSON)
          .header(TOKEN_HEADER, settings.internalToken())
          .body(json.writeValueAsString(body))
          .exchange((request, answer) -> new Answer(answer.getStatusCode().value(),
              new String(answer.getBody().readAllBytes(), StandardCharsets.UTF_8)));
    } catch (ResourceAccessException e) {
      log.warn("collections-service unreachable for STK push {}: {}", push.referenceId(), e.getMostSpecificCause()
          .toString());
      return new Result.Unavailable(e.getMostSpecificCause().toString());
    }
    try {
      JsonNode answer = json.readTree(response.body());
      if (response.statusCode() == 201) {
        return new Result.Accepted(RequestId.parse(answer.path("data").path("requestId").asString()));
      }
      if (response.statusCode() == 400 && answer.path("errors").isObject()) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        answer.path("errors").properties().forEach(entry -> {
          List<String> messages = new ArrayList<>();
          entry.getValue().forEach(m -> messages.add(m.asString()));
          errors.put(entry.getKey(), messages);
        });
        return new Result.Refused(errors);
      }
      if (response.statusCode() == 429) {
        // the number has had its prompts: the customer can wait or use another number; nothing was started
        return new Result.Refused(Map.of("phoneNumber", List.of(answer.path("message")
            .asString("Too many payment prompts were sent to this phone number; try again later"))));
      }
    } catch (RuntimeException e) {
      log.warn("unreadable answer from collections-service ({}): {}", response.statusCode(), e.toString());
    }
    log.warn("collections-service answered {} to STK push {}", response.statusCode(), push.referenceId());
    return new Result.Unavailable("status " + response.statusCode());
  }

  private String base() {
    String text = settings.uri().toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }
}

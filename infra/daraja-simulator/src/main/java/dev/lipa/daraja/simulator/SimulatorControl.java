package dev.lipa.daraja.simulator;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The simulator's own API under {@value #PREFIX}, for what drives a running simulator from outside its JVM (a demo
 * with {@code ./platform up --daraja-simulator}, the platform's system test): {@code POST /simulator/v1/faults} sets
 * fault modes and {@code POST /simulator/v1/faults/clear} clears them (tokens and journal untouched),
 * {@code POST /simulator/v1/reset} clears them, the scripts, the journal and the tokens,
 * {@code POST /simulator/v1/scripts} scripts a customer's or a receiver's result code, {@code GET
 * /simulator/v1/received} counts the requests received per API path, and those answered 2xx (accepted). Nothing like
 * it exists at Safaricom; the simulator listens on loopback only.
 */
final class SimulatorControl {

  static final String PREFIX = "/simulator/v1/";

  private final DarajaSimulator simulator;

  SimulatorControl(DarajaSimulator simulator) {
    this.simulator = simulator;
  }

  /** What happened, or the refusal: {@code ok} false with a message. */
  record Outcome(int status, Map<String, Object> body) {

    static Outcome ok(Map<String, Object> state) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("ok", true);
      body.putAll(state);
      return new Outcome(200, body);
    }

    static Outcome refused(int status, String message) {
      return new Outcome(status, Map.of("ok", false, "message", message));
    }
  }

  Outcome handle(String method, String path, JsonNode body) {
    if ("GET".equals(method) && path.equals(PREFIX + "received")) {
      return received();
    }
    if (!"POST".equals(method)) {
      return Outcome.refused(405, "POST only (GET for received)");
    }
    return switch (path.substring(PREFIX.length())) {
      case "faults" -> faults(body);
      case "faults/clear" -> {
        simulator.faults().reset();
        yield Outcome.ok(state());
      }
      case "reset" -> {
        simulator.reset();
        yield Outcome.ok(state());
      }
      case "scripts" -> script(body);
      default -> Outcome.refused(404, "unknown control path " + path);
    };
  }

  /**
   * Sets the fault modes the body names, each optional: {@code callbacks} (NORMAL, NEVER, TWICE, LATE),
   * {@code lateByMillis}, {@code customerDelayMillis}, {@code answerAfterMillis}, {@code spikeArrest} (true/false),
   * {@code stkQueriesBeingProcessed} (a count), {@code expireTokens} (true: every token issued so far expires).
   */
  private Outcome faults(JsonNode body) {
    if (body == null || !body.isObject()) {
      return Outcome.refused(400, "a JSON object of fault modes is expected");
    }
    Faults faults = simulator.faults();
    try {
      if (body.has("callbacks")) {
        faults.callbacks(Faults.CallbackMode.valueOf(body.get("callbacks").asString().toUpperCase(Locale.ROOT)));
      }
      if (body.has("lateByMillis")) {
        faults.lateBy(millis(body, "lateByMillis"));
      }
      if (body.has("customerDelayMillis")) {
        faults.customerDelay(millis(body, "customerDelayMillis"));
      }
      if (body.has("answerAfterMillis")) {
        faults.answerAfter(millis(body, "answerAfterMillis"));
      }
      if (body.has("spikeArrest")) {
        faults.spikeArrest(body.get("spikeArrest").asBoolean());
      }
      if (body.has("stkQueriesBeingProcessed")) {
        faults.stkQueriesBeingProcessed((int) bounded(body, "stkQueriesBeingProcessed", 1_000));
      }
      if (body.path("expireTokens").asBoolean(false)) {
        simulator.expireTokens();
      }
    } catch (IllegalArgumentException e) {
      return Outcome.refused(400, e.getMessage());
    }
    return Outcome.ok(state());
  }

  /** {@code {"phone": "2547…", "resultCode": "1032"}} or {@code {"receiver": "…", "resultCode": "2001"}}. */
  private Outcome script(JsonNode body) {
    String code = body == null ? "" : body.path("resultCode").asString("");
    if (!code.matches("[0-9A-Za-z_]{1,16}")) {
      return Outcome.refused(400, "resultCode is required (a Daraja result code)");
    }
    if (body.path("phone").isString()) {
      simulator.stkResult(body.get("phone").asString(), code);
    } else if (body.path("receiver").isString()) {
      simulator.payoutResult(body.get("receiver").asString(), code);
    } else {
      return Outcome.refused(400, "phone or receiver is required");
    }
    return Outcome.ok(state());
  }

  /**
   * How many requests each Daraja API path has received so far (since the last reset), and how many of them were
   * answered 2xx ({@code accepted}): a request refused for its token counts in the first only.
   */
  private Outcome received() {
    Map<String, Long> counts = new java.util.TreeMap<>();
    for (DarajaSimulator.Received r : simulator.received()) {
      if (!r.path().startsWith(PREFIX)) {
        counts.merge(r.path(), 1L, Long::sum);
      }
    }
    return Outcome.ok(Map.of("received", counts, "accepted", simulator.accepted()));
  }

  private Map<String, Object> state() {
    Faults faults = simulator.faults();
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("callbacks", faults.callbackMode.name());
    state.put("lateByMillis", faults.lateBy.toMillis());
    state.put("customerDelayMillis", faults.customerDelay.toMillis());
    state.put("answerAfterMillis", faults.answerDelay.toMillis());
    state.put("spikeArrest", faults.spikeArrest);
    state.put("stkQueriesBeingProcessed", faults.queriesBeingProcessed.get());
    return state;
  }

  private static Duration millis(JsonNode body, String field) {
    return Duration.ofMillis(bounded(body, field, 600_000));
  }

  private static long bounded(JsonNode body, String field, long max) {
    JsonNode value = body.get(field);
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0
        || value.asLong() > max) {
      throw new IllegalArgumentException(field + " must be a whole number from 0 to " + max);
    }
    return value.asLong();
  }
}

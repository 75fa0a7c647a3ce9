package dev.lipa.auth.apikeys;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import tools.jackson.databind.JsonNode;

/**
 * The operator's request to issue a key: which environment it is for. No body, or a body without
 * {@code environment}, is a sandbox key; otherwise {@code environment} must be exactly {@code sandbox} or {@code live}
 * (no other case, no spaces, no null). Any other field is refused by name, so a typo ({@code "env": "live"}) never
 * quietly issues a sandbox key.
 */
public record NewApiKey(Environment environment) {

  static final String ENVIRONMENT = "environment";
  private static final String RULE = "environment must be \"sandbox\" or \"live\"";

  /** A sandbox key: what the operator gets without asking for an environment. */
  public static final NewApiKey SANDBOX = new NewApiKey(Environment.SANDBOX);

  public NewApiKey {
    if (environment == null) {
      throw new IllegalArgumentException("a key belongs to an environment");
    }
  }

  /** Reads the optional body (null: none was sent), naming every failing field at once. */
  public static NewApiKey from(JsonNode body) {
    if (body == null || body.isMissingNode()) {
      return SANDBOX;
    }
    if (!body.isObject()) {
      throw ValidationException.of("body", "must be a JSON object");
    }
    FieldErrors errors = new FieldErrors();
    for (String field : body.propertyNames()) {
      if (!ENVIRONMENT.equals(field)) {
        errors.add(field, field + " is not a field of this request; the only one is " + ENVIRONMENT);
      }
    }
    Environment environment = Environment.SANDBOX;
    JsonNode value = body.get(ENVIRONMENT);
    if (value != null) {
      environment = exactly(value);
      if (environment == null) {
        errors.add(ENVIRONMENT, RULE);
      }
    }
    errors.throwIfAny();
    return new NewApiKey(environment);
  }

  /** The environment of exactly this name; null for anything else (Environment.of would forgive case and spaces). */
  private static Environment exactly(JsonNode value) {
    if (!value.isString()) {
      return null;
    }
    for (Environment environment : Environment.values()) {
      if (environment.claim().equals(value.stringValue())) {
        return environment;
      }
    }
    return null;
  }
}

package dev.lipa.gateway.rules;

/**
 * A streamed request body grew past the limit. The client's fault, so the circuit breakers ignore it
 * (application.yml) and the caller gets a 413.
 */
public class BodyTooLargeException extends RuntimeException {

  public BodyTooLargeException(long limit) {
    super("request body larger than " + limit + " bytes", null, false, false);
  }
}

package dev.lipa.common.ids;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.UUID;

/**
 * The {@code requestId} the platform gives each payment request (an STK push, a payout, a checkout payment) when it
 * accepts it: a random UUID the merchant polls and receives callbacks by, and the key of its Kafka records. A type of
 * its own so it is not confused with the numeric record {@code id}, the caller's {@code referenceId} or an event id.
 */
public record RequestId(@JsonValue UUID value) {

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public RequestId {
    Objects.requireNonNull(value, "requestId");
  }

  public static RequestId random() {
    return new RequestId(UUID.randomUUID());
  }

  public static RequestId of(UUID value) {
    return new RequestId(value);
  }

  /** Reads the text form; throws {@link IllegalArgumentException} when it is not a UUID. */
  public static RequestId parse(String text) {
    return new RequestId(UUID.fromString(text.strip()));
  }

  @Override
  public String toString() {
    return value.toString();
  }
}

package dev.lipa.common.ids;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * The identity of an organisation (a merchant), as auth-service mints it and the verified token carries it. Every
 * query of a merchant's records is scoped by one of these, taken from the token, never from a request body: giving it
 * a type of its own keeps it from being swapped with the other strings that travel beside it (API keys, token ids,
 * account numbers, references). Stored and published as its plain text.
 */
public record OrganisationId(@JsonValue String value) {

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public OrganisationId {
    Objects.requireNonNull(value, "organisationId");
    if (value.isEmpty()) {
      throw new IllegalArgumentException("organisationId must not be empty");
    }
  }

  public static OrganisationId of(String value) {
    return new OrganisationId(value);
  }

  @Override
  public String toString() {
    return value;
  }
}

package dev.lipa.rails.daraja;

/** A value that Daraja would refuse (or silently change), refused before anything is sent. */
public final class DarajaFieldException extends IllegalArgumentException {

  private final String field;

  public DarajaFieldException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  /** The Daraja field (for example {@code AccountReference}). */
  public String field() {
    return field;
  }
}

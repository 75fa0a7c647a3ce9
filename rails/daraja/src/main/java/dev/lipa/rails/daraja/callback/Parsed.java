package dev.lipa.rails.daraja.callback;

/** A callback body read as untrusted input: a typed value, or a typed rejection saying why (never an exception). */
public sealed interface Parsed<T> permits Parsed.Valid, Parsed.Rejected {

  /** The body is what Daraja sends. */
  record Valid<T>(T value) implements Parsed<T> {
  }

  /** The body is not what Daraja sends; {@code reason} is safe to log (it quotes nothing from the body). */
  record Rejected<T>(String reason) implements Parsed<T> {
  }
}

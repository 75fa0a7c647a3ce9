package dev.lipa.infra.bench;

/** The platform is not up (or not reachable): a clear message, exit status 3. */
final class PlatformDownException extends RuntimeException {

  PlatformDownException(String message) {
    super(message, null, false, false);
  }
}

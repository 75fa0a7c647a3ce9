package dev.lipa.common.callbacks;

import java.net.UnknownHostException;

/**
 * A destination refused while resolving it for a connection. It is an {@link UnknownHostException} so that an HTTP
 * client's DNS hook can throw it; callers tell it apart from a plain resolution failure by its type: a refused
 * destination will not become acceptable by trying again.
 */
public class RefusedDestination extends UnknownHostException {

  public RefusedDestination(String message) {
    super(message);
  }
}

package dev.lipa.auth.organisations;

import dev.lipa.common.ids.OrganisationId;

/** Other changes of the same organisation kept winning the race; the operator may simply send the change again. */
public class ConcurrentChangeException extends RuntimeException {

  public ConcurrentChangeException(OrganisationId organisationId) {
    super("organisation " + organisationId + " was changed concurrently; send the change again", null, false, false);
  }
}

package dev.lipa.collections.stk;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.phone.MobileNumber;
import java.time.Instant;
import java.util.Objects;

/**
 * Which of an organisation's STK pushes to list: optional filters (null means any) and a page.
 *
 * @param from earliest {@code createdAt}, inclusive
 * @param to latest {@code createdAt}, inclusive
 * @param phoneNumber a normalised number ({@link MobileNumber#value()})
 * @param page zero-based page number
 * @param size pushes per page
 */
public record StkListQuery(OrganisationId organisationId, StkStatus status, Instant from, Instant to,
    StkCurrency currency, String phoneNumber, int page, int size) {

  public StkListQuery {
    Objects.requireNonNull(organisationId, "organisationId");
    if (page < 0 || size < 1 || (long) page * size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("bad page " + page + " of size " + size);
    }
  }
}

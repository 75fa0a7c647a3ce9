package dev.lipa.payouts.payout;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.money.Currency;
import java.time.Instant;
import java.util.Objects;

/**
 * Which payouts of one organisation and kind to list: optional filters (null means any) and a page.
 *
 * @param from earliest {@code createdAt}, inclusive
 * @param to latest {@code createdAt}, inclusive
 * @param page zero-based page number
 * @param size payouts per page
 */
public record PayoutListQuery(OrganisationId organisationId, PayoutKind kind, PayoutStatus status, Currency currency,
    Instant from, Instant to, int page, int size) {

  public PayoutListQuery {
    Objects.requireNonNull(organisationId, "organisationId");
    Objects.requireNonNull(kind, "kind");
    if (page < 0 || size < 1 || (long) page * size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("bad page " + page + " of size " + size);
    }
  }
}

package dev.lipa.payouts.payout;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.lookups.ListCursor;
import dev.lipa.payouts.money.Currency;
import java.time.Instant;
import java.util.Objects;

/**
 * Which payouts of one organisation and kind to list: optional filters (null means any) and a page.
 *
 * @param from earliest {@code createdAt}, inclusive
 * @param to latest {@code createdAt}, inclusive
 * @param page zero-based page number (0 with a cursor)
 * @param size payouts per page
 * @param after a page's next-page cursor: only payouts strictly after its position (newest first), or null
 */
public record PayoutListQuery(OrganisationId organisationId, PayoutKind kind, PayoutStatus status, Currency currency,
    Instant from, Instant to, int page, int size, ListCursor after) {

  public PayoutListQuery {
    Objects.requireNonNull(organisationId, "organisationId");
    Objects.requireNonNull(kind, "kind");
    if (page < 0 || size < 1 || (long) page * size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("bad page " + page + " of size " + size);
    }
    if (after != null && (page != 0 || !after.organisationId().equals(organisationId)
        || !after.list().equals(cursorList(kind)))) {
      throw new IllegalArgumentException("a cursor continues its own list from its first page");
    }
  }

  /** A page by number, without a cursor. */
  public PayoutListQuery(OrganisationId organisationId, PayoutKind kind, PayoutStatus status, Currency currency,
      Instant from, Instant to, int page, int size) {
    this(organisationId, kind, status, currency, from, to, page, size, null);
  }

  /** The list's name in its cursors: one list per kind, so a till cursor is refused by the send money list. */
  public static String cursorList(PayoutKind kind) {
    return "payouts-" + kind.name();
  }

  /** The cursor that continues a list of {@code payout}'s kind and organisation after it. */
  public static ListCursor cursorAfter(Payout payout) {
    return new ListCursor(cursorList(payout.kind()), payout.organisationId(), payout.details().createdAt(),
        payout.id());
  }
}

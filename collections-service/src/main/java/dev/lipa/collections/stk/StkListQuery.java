package dev.lipa.collections.stk;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.lookups.ListCursor;
import dev.lipa.common.phone.MobileNumber;
import java.time.Instant;
import java.util.Objects;

/**
 * Which of an organisation's STK pushes to list: optional filters (null means any) and a page.
 *
 * @param from earliest {@code createdAt}, inclusive
 * @param to latest {@code createdAt}, inclusive
 * @param phoneNumber a normalised number ({@link MobileNumber#value()})
 * @param page zero-based page number (0 with a cursor)
 * @param size pushes per page
 * @param after a page's next-page cursor: only pushes strictly after its position (newest first), or null
 */
public record StkListQuery(OrganisationId organisationId, StkStatus status, Instant from, Instant to,
    StkCurrency currency, String phoneNumber, int page, int size, ListCursor after) {

  /** The list's name in its cursors. */
  public static final String CURSOR_LIST = "stk";

  public StkListQuery {
    Objects.requireNonNull(organisationId, "organisationId");
    if (page < 0 || size < 1 || (long) page * size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("bad page " + page + " of size " + size);
    }
    if (after != null && (page != 0 || !after.organisationId().equals(organisationId)
        || !after.list().equals(CURSOR_LIST))) {
      throw new IllegalArgumentException("a cursor continues its own list from its first page");
    }
  }

  /** A page by number, without a cursor. */
  public StkListQuery(OrganisationId organisationId, StkStatus status, Instant from, Instant to,
      StkCurrency currency, String phoneNumber, int page, int size) {
    this(organisationId, status, from, to, currency, phoneNumber, page, size, null);
  }

  /** The cursor that continues this list after {@code push}. */
  public static ListCursor cursorAfter(StkPush push) {
    return new ListCursor(CURSOR_LIST, push.organisationId(), push.details().createdAt(), push.details().id());
  }
}

package dev.lipa.collections.stk.web;

import dev.lipa.collections.stk.StkCurrency;
import dev.lipa.collections.stk.StkListQuery;
import dev.lipa.collections.stk.StkStatus;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.lookups.ListCursor;
import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.time.QueryWindow;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The query parameters of {@code GET /api/sandbox/v1/stk/all} (the spec shows none; ours, all optional):
 * <ul>
 *   <li>{@code status}: PENDING, SUCCESS or FAILED (exact);</li>
 *   <li>{@code from}, {@code to}: inclusive bounds on {@code createdAt}, each an ISO date ({@code 2026-03-01}: the
 *       whole day) or date-time ({@code 2026-03-01T09:30:00}, with or without fraction) in the platform zone, or a
 *       date-time with an offset ({@code 2026-03-01T06:30:00Z}), in the years 0001 to 9999; {@code to} must not be
 *       before {@code from};</li>
 *   <li>{@code currencyCode}: KSH, TZS or UGX (exact);</li>
 *   <li>{@code phoneNumber}: a Kenyan, Tanzanian or Ugandan mobile number in any accepted form (normalised before
 *       matching; a local 07… form is read in the country of {@code currencyCode} when given, else as Kenyan first,
 *       then Tanzanian, then Ugandan);</li>
 *   <li>{@code page} from 0 and {@code size} from 1 to 500, default 0 and 100;</li>
 *   <li>{@code cursor}: the {@code nextCursor} of an earlier page of this list, instead of {@code page}: the pushes
 *       strictly after that page's last one (see {@link ListCursor}); a cursor of another list or organisation, or
 *       edited, is a 400.</li>
 * </ul>
 * Blank values count as absent; unknown parameters are ignored; every bad value is a 400 naming its parameter.
 */
record StkListParameters(String status, String from, String to, String currencyCode, String phoneNumber,
    String page, String size, String cursor) {

  StkListParameters(String status, String from, String to, String currencyCode, String phoneNumber, String page,
      String size) {
    this(status, from, to, currencyCode, phoneNumber, page, size, null);
  }

  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 500;
  /** Bounds are four-digit years: ISO parsing takes +999999999, which a Mongo date cannot hold. */

  /** Checks every parameter at once; throws a {@link dev.lipa.common.web.ValidationException} naming each bad one. */
  StkListQuery toQuery(OrganisationId organisationId, ZoneId zone) {
    FieldErrors errors = new FieldErrors();

    StkStatus statusFilter = null;
    if (present(status)) {
      statusFilter = Arrays.stream(StkStatus.values()).filter(s -> s.name().equals(status.strip())).findFirst()
          .orElse(null);
      if (statusFilter == null) {
        errors.add("status", "status must be one of " + Arrays.stream(StkStatus.values()).map(Enum::name)
            .collect(Collectors.joining(", ")));
      }
    }

    QueryWindow window = QueryWindow.read(from, to, zone, errors);
    Instant fromBound = window.from();
    Instant toBound = window.to();

    StkCurrency currency = null;
    if (present(currencyCode)) {
      currency = StkCurrency.of(currencyCode.strip()).orElse(null);
      if (currency == null) {
        errors.add("currencyCode", "currencyCode must be one of " + StkCurrency.codes());
      }
    }

    String phone = null;
    if (present(phoneNumber)) {
      // a "+" in a query string arrives as a space when the client did not encode it
      // with a currency filter a local form is read in that currency's country first
      String text = phoneNumber.strip();
      phone = (currency == null ? MobileNumber.parseAny(text)
          : MobileNumber.parse(text, currency.country()).or(() -> MobileNumber.parseAny(text)))
          .map(MobileNumber::value).orElse(null);
      if (phone == null) {
        errors.add("phoneNumber", "phoneNumber must be a Kenyan, Tanzanian or Ugandan mobile number");
      }
    }

    Integer pageNumber = present(page) ? integer(page) : Integer.valueOf(0);
    if (pageNumber == null || pageNumber < 0) {
      errors.add("page", "page must be a whole number, 0 or more");
    }
    Integer pageSize = present(size) ? integer(size) : Integer.valueOf(DEFAULT_PAGE_SIZE);
    if (pageSize == null || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      errors.add("size", "size must be a whole number between 1 and " + MAX_PAGE_SIZE);
    }
    if (!errors.has("page") && !errors.has("size") && (long) pageNumber * pageSize > Integer.MAX_VALUE) {
      errors.add("page", "page is too large");
    }
    ListCursor after = null;
    if (present(cursor)) {
      if (present(page)) {
        errors.add("page", "page and cursor cannot be combined: the cursor says where the next page starts");
      } else {
        try {
          after = ListCursor.read(cursor, StkListQuery.CURSOR_LIST, organisationId);
        } catch (ValidationException e) {
          e.errors().forEach((field, messages) -> messages.forEach(message -> errors.add(field, message)));
        }
      }
    }
    errors.throwIfAny();
    return new StkListQuery(organisationId, statusFilter, fromBound, toBound, currency, phone, pageNumber, pageSize,
        after);
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }

  private static Integer integer(String text) {
    try {
      return Integer.valueOf(text.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}

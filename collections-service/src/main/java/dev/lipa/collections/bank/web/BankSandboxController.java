package dev.lipa.collections.bank.web;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.bank.BankCollection;
import dev.lipa.collections.bank.BankCollectionRecord;
import dev.lipa.collections.bank.BankCollections;
import dev.lipa.collections.bank.BankListQuery;
import dev.lipa.collections.organisations.OrganisationProfiles;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.BankRecordOrganisation;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoints 13 and 14 of the spec (one bank collection by its uuid, the caller's bank collections), in both
 * environments ({@link BankSimulationController} is the sandbox's deposit simulator). Every query is scoped by the caller's organisation: another organisation's record is "not found".
 */
@RestController
@RequestMapping(path = StackEnvironment.API + "/bank/collection", produces = MediaType.APPLICATION_JSON_VALUE)
class BankSandboxController {

  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 500;
  static final String NOT_FOUND = "Bank collection not found";

  private final BankCollections collections;
  private final OrganisationProfiles organisations;
  private final ZoneId zone;

  BankSandboxController(BankCollections collections, OrganisationProfiles organisations,
      CollectionsProperties properties) {
    this.collections = collections;
    this.organisations = organisations;
    this.zone = properties.zone();
  }

  /** Endpoint 13: {@code requestId} is the record's uuid. */
  @GetMapping("/single")
  Envelope<BankCollectionRecord> single(@RequestParam String requestId, HttpServletRequest request) {
    UUID uuid;
    try {
      uuid = UUID.fromString(requestId.strip());
    } catch (IllegalArgumentException e) {
      throw ValidationException.of("requestId", "requestId must be a UUID");
    }
    return collections.find(Caller.organisation(request), uuid)
        .map(c -> Envelope.ok("OK", view(c)))
        .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
  }

  /**
   * Endpoint 14, as a list (the spec's sample shows one object): newest first, optionally only those created from
   * {@code from} to {@code to} (dates, inclusive, in the platform's zone), page {@code page} of {@code size}.
   */
  @GetMapping("/all")
  Envelope<List<BankCollectionRecord>> all(@RequestParam(required = false) String from,
      @RequestParam(required = false) String to, @RequestParam(required = false) String page,
      @RequestParam(required = false) String size, HttpServletRequest request) {
    FieldErrors errors = new FieldErrors();
    LocalDate fromDate = date("from", from, errors);
    LocalDate toDate = date("to", to, errors);
    if (fromDate != null && toDate != null && toDate.isBefore(fromDate)) {
      errors.add("to", "to must not be before from");
    }
    int pageNumber = number("page", page, 0, 0, Integer.MAX_VALUE, errors);
    int pageSize = number("size", size, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE, errors);
    if (!errors.has("page") && !errors.has("size") && (long) pageNumber * pageSize > Integer.MAX_VALUE) {
      errors.add("page", "page is too large");
    }
    errors.throwIfAny();
    Instant createdFrom = fromDate == null ? null : fromDate.atStartOfDay(zone).toInstant();
    Instant createdBefore = toDate == null ? null : toDate.plusDays(1).atStartOfDay(zone).toInstant();
    OrganisationId organisationId = Caller.organisation(request);
    // every record of the list belongs to the caller: one look-up of the organisation object serves them all
    BankRecordOrganisation organisation = organisations.bankShape(organisationId);
    return Envelope.ok("OK", collections.list(organisationId,
            new BankListQuery(createdFrom, createdBefore, pageNumber, pageSize)).stream()
        .map(c -> BankCollectionRecord.of(c, organisation, zone)).toList());
  }

  private BankCollectionRecord view(BankCollection collection) {
    return BankCollectionRecord.of(collection, organisations.bankShape(collection.organisationId()), zone);
  }

  private static LocalDate date(String name, String value, FieldErrors errors) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      LocalDate date = LocalDate.parse(value.strip());
      // ISO parsing takes years up to +999999999, where the day after (and a Mongo date) no longer exists
      if (date.getYear() >= 1 && date.getYear() <= 9999) {
        return date;
      }
    } catch (DateTimeParseException e) {
      // reported below
    }
    errors.add(name, name + " must be a date as YYYY-MM-DD");
    return null;
  }

  private static int number(String name, String value, int absent, int min, int max, FieldErrors errors) {
    if (value == null || value.isBlank()) {
      return absent;
    }
    try {
      int number = Integer.parseInt(value.strip());
      if (number >= min && number <= max) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    errors.add(name, max == Integer.MAX_VALUE ? name + " must be a whole number, 0 or more"
        : name + " must be a whole number between " + min + " and " + max);
    return absent;
  }
}

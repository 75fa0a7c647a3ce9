package dev.lipa.auth.admin;

import dev.lipa.auth.organisations.Organisation;
import dev.lipa.common.time.RecordTimes;
import java.time.ZoneId;
import java.util.List;

/**
 * An organisation as the admin API shows it; {@code uuid} repeats {@code organisationId} as the spec's records name it.
 * {@code parent} is true for a top-level organisation, false for a sub-account (as in the bank records' organisation
 * object); {@code revision} is the profile revision last published. {@code requestsPerSecond} is the organisation's own
 * request limit at the gateway, null when it has the platform's default.
 */
record OrganisationView(
    long id,
    String organisationId,
    String uuid,
    String name,
    String phoneNumber,
    String email,
    String uniqueReference,
    String parentOrganisationId,
    boolean parent,
    String environment,
    String collectionCallbackUrl,
    List<String> bankAccountNumbers,
    String logoUrl,
    String displayName,
    Integer requestsPerSecond,
    long revision,
    String createdAt,
    String updatedAt) {

  static OrganisationView of(Organisation o, ZoneId zone) {
    return new OrganisationView(o.id(), o.organisationId().value(), o.organisationId().value(), o.name(), o.phoneNumber(), o.email(),
        o.uniqueReference(), o.parentOrganisationId() == null ? null : o.parentOrganisationId().value(), !o.isSubAccount(), o.environment(), o.collectionCallbackUrl(),
        o.bankAccountNumbers(), o.logoUrl(), o.displayName(), o.requestsPerSecond(), o.revision(), RecordTimes.format(o.createdAt(), zone),
        RecordTimes.format(o.updatedAt(), zone));
  }
}

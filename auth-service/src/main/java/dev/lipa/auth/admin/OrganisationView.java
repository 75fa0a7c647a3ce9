package dev.lipa.auth.admin;

import dev.lipa.auth.organisations.Organisation;
import dev.lipa.common.time.RecordTimes;
import java.time.ZoneId;

/** An organisation as the admin API shows it; {@code uuid} repeats {@code organisationId} as the spec's records name it. */
record OrganisationView(
    long id,
    String organisationId,
    String uuid,
    String name,
    String phoneNumber,
    String email,
    String uniqueReference,
    String parentOrganisationId,
    String environment,
    String createdAt,
    String updatedAt) {

  static OrganisationView of(Organisation o, ZoneId zone) {
    return new OrganisationView(o.id(), o.organisationId(), o.organisationId(), o.name(), o.phoneNumber(), o.email(),
        o.uniqueReference(), o.parentOrganisationId(), o.environment(), RecordTimes.format(o.createdAt(), zone),
        RecordTimes.format(o.updatedAt(), zone));
  }
}

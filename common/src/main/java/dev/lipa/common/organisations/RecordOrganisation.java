package dev.lipa.common.organisations;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.time.RecordTimes;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The spec's organisation object of STK, send money, till and paybill records. When the profile has not reached
 * this service's copy yet, only {@code uuid} is known and every other field is null.
 */
@JsonPropertyOrder({"id", "uuid", "name", "phoneNumber", "email", "uniqueReference", "createdAt", "updatedAt"})
public record RecordOrganisation(Long id, String uuid, String name, String phoneNumber, String email,
    String uniqueReference, String createdAt, String updatedAt) {

  public static RecordOrganisation of(OrganisationId organisationId, Optional<OrganisationProfile> profile, ZoneId zone) {
    return profile.map(p -> new RecordOrganisation(p.id(), p.organisationId(), p.name(), p.phoneNumber(), p.email(),
            p.uniqueReference(), RecordTimes.format(p.createdAt(), zone), RecordTimes.format(p.updatedAt(), zone)))
        .orElseGet(() -> new RecordOrganisation(null, organisationId.value(), null, null, null, null, null, null));
  }
}

package dev.lipa.payouts.organisations;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationProfile;
import dev.lipa.common.organisations.RecordOrganisation;
import dev.lipa.payouts.PayoutsProperties;
import java.time.ZoneId;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * {@link Organisations} over this service's copy of the organisation profiles ({@code payments.organisations.v1},
 * kept by common's {@link OrganisationDirectory}). A sub-account whose profile has not arrived yet is unknown here:
 * it is refused like any other organisation until the copy catches up.
 */
@Component
class DirectoryOrganisations implements Organisations {

  private final OrganisationDirectory directory;
  private final ZoneId zone;

  DirectoryOrganisations(OrganisationDirectory directory, PayoutsProperties properties) {
    this.directory = directory;
    this.zone = properties.zone();
  }

  @Override
  public boolean isSelfOrSubAccount(OrganisationId caller, OrganisationId companyId) {
    return caller.equals(companyId) || isSubAccountOf(companyId, caller);
  }

  @Override
  public boolean isSubAccountOf(OrganisationId childId, OrganisationId parentId) {
    return directory.byId(childId).map(p -> parentId.value().equals(p.parentOrganisationId())).orElse(false);
  }

  @Override
  public Optional<OrganisationId> parentOf(OrganisationId organisationId) {
    return directory.byId(organisationId).map(OrganisationProfile::parentOrganisationId)
        .filter(parent -> !parent.isEmpty()).map(OrganisationId::of);
  }

  @Override
  public RecordOrganisation recordOrganisation(OrganisationId organisationId) {
    return RecordOrganisation.of(organisationId, directory.byId(organisationId), zone);
  }
}

package dev.lipa.checkout.web;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationProfile;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The merchant's name and logo as the operator set them (PATCH /admin/v1/organisations/{id}), from this service's copy
 * of the organisation profiles: displayName, else the organisation's name; null until the profile has arrived.
 */
@Component
public class Branding {

  private final OrganisationDirectory directory;

  public Branding(OrganisationDirectory directory) {
    this.directory = directory;
  }

  public record Merchant(String displayName, String logoUrl) {
  }

  public Merchant of(OrganisationId organisationId) {
    Optional<OrganisationProfile> profile = directory.byId(organisationId);
    return profile.map(p -> new Merchant(p.displayName() != null && !p.displayName().isBlank() ? p.displayName()
            : p.name(), p.logoUrl()))
        .orElse(new Merchant(null, null));
  }
}

package dev.lipa.common.organisations;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.ids.OrganisationId;
import java.util.Optional;

/**
 * The spec's organisation object of bank collection records.
 *
 * <p>{@code parentOrganisation} is the parent's uuid for a sub-account and null for a top-level organisation;
 * {@code parent} is true for a top-level organisation (a main account, which may hold sub-accounts) and false for a
 * sub-account, so exactly one of "parentOrganisation set" and "parent true" holds. When the profile has not reached
 * this service's copy yet, only {@code uuid} is known and every other field is null.
 */
@JsonPropertyOrder({"uuid", "name", "phoneNumber", "environment", "collectionCallbackUrl", "parentOrganisation",
    "parent"})
public record BankRecordOrganisation(String uuid, String name, String phoneNumber, String environment,
    String collectionCallbackUrl, String parentOrganisation, Boolean parent) {

  public static BankRecordOrganisation of(OrganisationId organisationId, Optional<OrganisationProfile> profile) {
    return profile.map(p -> new BankRecordOrganisation(p.organisationId(), p.name(), p.phoneNumber(),
            p.environment(), p.collectionCallbackUrl(), p.parentOrganisationId(), p.parent()))
        .orElseGet(() -> new BankRecordOrganisation(organisationId.value(), null, null, null, null, null, null));
  }
}

package dev.lipa.auth.organisations;

import dev.lipa.auth.organisations.OrganisationChanges.Change;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.OrganisationProfile;
import java.time.Instant;
import java.util.List;

/**
 * A merchant organisation: the identity behind API keys and the {@code sub} of its tokens, and the profile other
 * services copy to show the spec's organisation objects.
 *
 * @param organisationId the public identity (a UUID string), also the token subject
 * @param id a numeric id (positive, below 2^53 so JavaScript clients read it exactly), unique
 * @param uniqueReference a short generated reference, unique, for people (support, statements)
 * @param parentOrganisationId the parent of a sub-account, null for a top-level organisation
 * @param collectionCallbackUrl where bank collections are reported (absolute http(s) URL); null when not set
 * @param logoUrl hosted checkout branding (absolute https URL); null when not set
 * @param displayName hosted checkout branding; null when not set
 * @param bankAccountNumbers the bank accounts credited to this organisation; each belongs to one organisation only
 * @param revision 1 when created, one more with every change; published with every change
 * @param requestsPerSecond the organisation's own request limit at the gateway, carried in its access tokens; null
 *     for the gateway's default
 */
public record Organisation(
    OrganisationId organisationId,
    long id,
    String name,
    String phoneNumber,
    String email,
    String uniqueReference,
    OrganisationId parentOrganisationId,
    String environment,
    String collectionCallbackUrl,
    String logoUrl,
    String displayName,
    List<String> bankAccountNumbers,
    Instant createdAt,
    Instant updatedAt,
    long revision,
    Integer requestsPerSecond) {

  public Organisation {
    bankAccountNumbers = bankAccountNumbers == null ? List.of() : List.copyOf(bankAccountNumbers);
  }

  public boolean isSubAccount() {
    return parentOrganisationId != null;
  }

  /**
   * This organisation with the changes applied, one revision further; or this very organisation when the changes
   * change nothing (a repeated PATCH is no new revision and no new event).
   */
  public Organisation change(OrganisationChanges changes, Instant now) {
    Organisation changed = new Organisation(organisationId, id,
        Change.applied(changes.name(), name),
        Change.applied(changes.phoneNumber(), phoneNumber),
        Change.applied(changes.email(), email),
        uniqueReference, parentOrganisationId, environment,
        Change.applied(changes.collectionCallbackUrl(), collectionCallbackUrl),
        Change.applied(changes.logoUrl(), logoUrl),
        Change.applied(changes.displayName(), displayName),
        Change.applied(changes.bankAccountNumbers(), bankAccountNumbers),
        createdAt, updatedAt, revision, Change.applied(changes.requestsPerSecond(), requestsPerSecond));
    if (changed.equals(this)) {
      return this;
    }
    return new Organisation(organisationId, id, changed.name, changed.phoneNumber, changed.email, uniqueReference,
        parentOrganisationId, environment, changed.collectionCallbackUrl, changed.logoUrl, changed.displayName,
        changed.bankAccountNumbers, createdAt, now, revision + 1, changed.requestsPerSecond);
  }

  /** The profile other services copy ({@code organisation.upserted} on {@code payments.organisations.v1}). */
  public OrganisationProfile profile() {
    return new OrganisationProfile(organisationId.value(), id, name, phoneNumber, email, uniqueReference, environment,
        collectionCallbackUrl, parentOrganisationId == null ? null : parentOrganisationId.value(), !isSubAccount(), bankAccountNumbers, logoUrl, displayName,
        createdAt, updatedAt, revision);
  }
}

package dev.lipa.auth.organisations;

import java.time.Instant;

/**
 * A merchant organisation: the identity behind API keys and the {@code sub} of its tokens.
 *
 * @param organisationId the public identity (a UUID string), also the token subject
 * @param id a numeric id (positive, below 2^53 so JavaScript clients read it exactly), unique
 * @param uniqueReference a short generated reference, unique, for people (support, statements)
 * @param parentOrganisationId the parent of a sub-account, null for a top-level organisation
 */
public record Organisation(
    String organisationId,
    long id,
    String name,
    String phoneNumber,
    String email,
    String uniqueReference,
    String parentOrganisationId,
    String environment,
    Instant createdAt,
    Instant updatedAt) {

  public boolean isSubAccount() {
    return parentOrganisationId != null;
  }
}

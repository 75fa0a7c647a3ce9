package dev.lipa.common.organisations;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * An organisation's profile as auth-service publishes it on {@code payments.organisations.v1} (event type
 * {@value #UPSERTED}, key = organisationId, {@code data} = every field of this record). Every service that shows
 * organisation objects keeps its own copy of these profiles ({@link OrganisationDirectory}).
 *
 * <p>{@code revision} grows by one with every change of the profile (1 when created): a copy applies an event only
 * when its revision is higher than the one it holds, so redelivered or reordered events never roll a profile back.
 *
 * @param organisationId the public id (a UUID string), {@code uuid} in the spec's organisation objects
 * @param id the numeric id of the spec's STK/payout organisation object
 * @param parentOrganisationId the parent of a sub-account; null for a top-level organisation
 * @param parent true for a top-level organisation (a main account, which may hold sub-accounts), false for a
 *     sub-account; always {@code parentOrganisationId == null}
 * @param collectionCallbackUrl where bank collections of this organisation are reported; null when not set
 * @param bankAccountNumbers the bank account numbers credited to this organisation (each belongs to one only)
 * @param logoUrl branding of the hosted checkout page; null when not set
 * @param displayName branding of the hosted checkout page; null when not set
 */
public record OrganisationProfile(
    String organisationId,
    long id,
    String name,
    String phoneNumber,
    String email,
    String uniqueReference,
    String environment,
    String collectionCallbackUrl,
    String parentOrganisationId,
    boolean parent,
    List<String> bankAccountNumbers,
    String logoUrl,
    String displayName,
    Instant createdAt,
    Instant updatedAt,
    long revision) {

  /** The event type auth-service publishes on every creation and every change of a profile. */
  public static final String UPSERTED = "organisation.upserted";

  public OrganisationProfile {
    Objects.requireNonNull(organisationId, "organisationId");
    bankAccountNumbers = bankAccountNumbers == null ? List.of() : List.copyOf(bankAccountNumbers);
    if (parent != (parentOrganisationId == null)) {
      throw new IllegalArgumentException("parent must be true exactly when there is no parentOrganisationId");
    }
  }

  /** The event's {@code data}, in a stable field order; times are ISO-8601 instants. */
  public Map<String, Object> toEventData() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("organisationId", organisationId);
    data.put("id", id);
    data.put("name", name);
    data.put("phoneNumber", phoneNumber);
    data.put("email", email);
    data.put("uniqueReference", uniqueReference);
    data.put("environment", environment);
    data.put("collectionCallbackUrl", collectionCallbackUrl);
    data.put("parentOrganisationId", parentOrganisationId);
    data.put("parent", parent);
    data.put("bankAccountNumbers", bankAccountNumbers);
    data.put("logoUrl", logoUrl);
    data.put("displayName", displayName);
    data.put("createdAt", createdAt == null ? null : createdAt.toString());
    data.put("updatedAt", updatedAt == null ? null : updatedAt.toString());
    data.put("revision", revision);
    return data;
  }

  /**
   * Reads an event's {@code data}; fields a later version adds are ignored. {@code parent} is derived from
   * {@code parentOrganisationId}, so the two can never disagree in a copy.
   *
   * @throws IllegalArgumentException when organisationId or revision is missing
   */
  public static OrganisationProfile fromEventData(JsonNode data) {
    String organisationId = text(data, "organisationId");
    JsonNode revision = data.path("revision");
    if (organisationId == null || !revision.isIntegralNumber()) {
      throw new IllegalArgumentException("an organisation profile needs organisationId and an integral revision");
    }
    List<String> accounts = new ArrayList<>();
    data.path("bankAccountNumbers").forEach(account -> {
      if (account.isString()) {
        accounts.add(account.stringValue());
      }
    });
    String parentId = text(data, "parentOrganisationId");
    return new OrganisationProfile(organisationId, data.path("id").asLong(0), text(data, "name"),
        text(data, "phoneNumber"), text(data, "email"), text(data, "uniqueReference"), text(data, "environment"),
        text(data, "collectionCallbackUrl"), parentId, parentId == null, accounts, text(data, "logoUrl"),
        text(data, "displayName"), instant(data, "createdAt"), instant(data, "updatedAt"), revision.longValue());
  }

  private static String text(JsonNode data, String field) {
    JsonNode node = data.path(field);
    return node.isString() ? node.stringValue() : null;
  }

  private static Instant instant(JsonNode data, String field) {
    String value = text(data, field);
    return value == null ? null : Instant.parse(value);
  }
}

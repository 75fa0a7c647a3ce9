package dev.lipa.auth.admin;

import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.apikeys.ApiKeySummary;
import dev.lipa.auth.apikeys.ApiKeys;
import dev.lipa.auth.apikeys.IssuedApiKey;
import dev.lipa.auth.apikeys.NewApiKey;
import dev.lipa.auth.organisations.BankAccountTakenException;
import dev.lipa.auth.organisations.ConcurrentChangeException;
import dev.lipa.auth.organisations.NewOrganisation;
import dev.lipa.auth.organisations.OrganisationChanges;
import dev.lipa.auth.organisations.Organisations;
import dev.lipa.auth.revocations.TokenRevocations;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.time.RecordTimes;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The operator API (platform team only, see {@link dev.lipa.common.servlet.OperatorTokenFilter}): organisations, their
 * API keys and the revocation of their tokens. Answers
 * in the integer-status envelope; failures go through the service-wide advice.
 */
@RestController
@RequestMapping("/admin/v1/organisations")
class OrganisationAdminController {

  private final Organisations organisations;
  private final ApiKeys apiKeys;
  private final TokenRevocations revocations;
  private final ZoneId zone;

  OrganisationAdminController(Organisations organisations, ApiKeys apiKeys, TokenRevocations revocations,
      AuthProperties properties) {
    this.organisations = organisations;
    this.apiKeys = apiKeys;
    this.revocations = revocations;
    this.zone = properties.zone();
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<Envelope<OrganisationView>> create(@RequestBody JsonNode body) {
    OrganisationView view = OrganisationView.of(organisations.create(NewOrganisation.from(body)), zone);
    return ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("Organisation created", view));
  }

  @GetMapping("/{organisationId}")
  Envelope<OrganisationView> get(@PathVariable OrganisationId organisationId) {
    return organisations.find(organisationId)
        .map(o -> Envelope.ok("OK", OrganisationView.of(o, zone)))
        .orElseThrow(() -> ApiException.notFound("Organisation not found"));
  }

  /**
   * Sets profile fields (see {@link OrganisationChanges}): absent fields stay as they are, an explicit null clears.
   * Each effective change is a new revision, published to the other services in the same write.
   */
  @PatchMapping(path = "/{organisationId}", consumes = MediaType.APPLICATION_JSON_VALUE)
  Envelope<OrganisationView> change(@PathVariable OrganisationId organisationId, @RequestBody JsonNode body) {
    OrganisationChanges changes = OrganisationChanges.from(body);
    try {
      return organisations.change(organisationId, changes)
          .map(o -> Envelope.ok("Organisation updated", OrganisationView.of(o, zone)))
          .orElseThrow(() -> ApiException.notFound("Organisation not found"));
    } catch (BankAccountTakenException | ConcurrentChangeException e) {
      throw ApiException.conflict(e.getMessage());
    }
  }

  /**
   * Issues a key of the body's {@code environment} ({@link NewApiKey}: no body, or none named, is a sandbox key). Any
   * organisation may hold keys of both environments: whether a merchant may take live money is the platform team's
   * decision, made by issuing the live key.
   */
  @PostMapping("/{organisationId}/api-keys")
  ResponseEntity<Envelope<IssuedKeyView>> issueKey(@PathVariable OrganisationId organisationId,
      @RequestBody(required = false) JsonNode body) {
    IssuedApiKey issued = apiKeys.issue(organisationId, NewApiKey.from(body));
    IssuedKeyView view = new IssuedKeyView(issued.apiKey(), issued.apiSecret(), issued.organisationId().value(),
        issued.environment().claim(), RecordTimes.format(issued.createdAt(), zone));
    // the secret is in this answer and nowhere else: no cache may keep a copy
    return ResponseEntity.status(HttpStatus.CREATED).cacheControl(CacheControl.noStore())
        .body(Envelope.created("API key issued; store the secret now, it cannot be shown again", view));
  }

  /** The organisation's keys, active and revoked, oldest first; never anything of their secrets. */
  @GetMapping("/{organisationId}/api-keys")
  Envelope<List<KeyView>> listKeys(@PathVariable OrganisationId organisationId) {
    return Envelope.ok("OK", apiKeys.list(organisationId).stream().map(key -> KeyView.of(key, zone)).toList());
  }

  @DeleteMapping("/{organisationId}/api-keys/{apiKey}")
  Envelope<RevokedKeyView> revokeKey(@PathVariable OrganisationId organisationId, @PathVariable String apiKey) {
    ApiKeySummary revoked = apiKeys.revoke(organisationId, apiKey);
    return Envelope.ok("API key revoked",
        new RevokedKeyView(revoked.apiKey(), revoked.status().name(), revoked.environment().claim()));
  }

  /**
   * Revokes every token of the organisation issued up to now (the same second included: token times are whole
   * seconds), access and refresh, at every gateway and service within seconds; its API keys stay usable for new tokens.
   */
  @PostMapping("/{organisationId}/revoke-tokens")
  Envelope<RevokedTokensView> revokeTokens(@PathVariable OrganisationId organisationId) {
    Instant revokedBefore = revocations.revokeOrganisation(organisationId);
    return Envelope.ok("Tokens revoked",
        new RevokedTokensView(organisationId.value(), RecordTimes.format(revokedBefore, zone)));
  }

  /** A key just issued, with its secret, shown this once. */
  record IssuedKeyView(String apiKey, String apiSecret, String organisationId, String environment, String createdAt) {

    @Override
    public String toString() {
      return "IssuedKeyView[apiKey=" + apiKey + "]";
    }
  }

  record RevokedKeyView(String apiKey, String status, String environment) {
  }

  /** A key in a listing: {@code revokedAt} is null while it is active. */
  record KeyView(String apiKey, String organisationId, String environment, String status, String createdAt,
      String revokedAt) {

    static KeyView of(ApiKeySummary key, ZoneId zone) {
      return new KeyView(key.apiKey(), key.organisationId().value(), key.environment().claim(), key.status().name(),
          RecordTimes.format(key.createdAt(), zone),
          key.revokedAt() == null ? null : RecordTimes.format(key.revokedAt(), zone));
    }
  }

  /** Every token of the organisation issued up to {@code revokedBefore} (and within its second) is refused. */
  record RevokedTokensView(String organisationId, String revokedBefore) {
  }
}

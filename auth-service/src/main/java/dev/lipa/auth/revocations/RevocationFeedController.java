package dev.lipa.auth.revocations;

import dev.lipa.common.security.RevocationFeed;
import dev.lipa.common.web.Envelope;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.WebRequest;

/**
 * {@code GET /internal/v1/revocations}: the revocation feed every verifier of the platform polls (behind the internal
 * token, like every {@code /internal/**}; never routed by the gateway). It carries an ETag: a poll that sends it back
 * in {@code If-None-Match} while nothing changed gets a bodiless 304. The body's shape is what
 * {@link dev.lipa.common.security.RevocationList} reads.
 */
@RestController
class RevocationFeedController {

  private final TokenRevocations revocations;

  RevocationFeedController(TokenRevocations revocations) {
    this.revocations = revocations;
  }

  @GetMapping(RevocationFeed.PATH)
  ResponseEntity<Envelope<FeedView>> feed(WebRequest request) {
    TokenRevocations.Feed feed = revocations.feed();
    if (request.checkNotModified("\"" + feed.version() + "\"")) {
      return null; // 304, headers set by checkNotModified
    }
    return ResponseEntity.ok().cacheControl(CacheControl.noCache()).eTag("\"" + feed.version() + "\"")
        .body(Envelope.ok("Revocations fetched", FeedView.of(feed)));
  }

  /** The feed's body: instants in ISO-8601 UTC, for machines. */
  record FeedView(String version, List<KeyView> apiKeys, List<OrganisationView> organisations) {

    static FeedView of(TokenRevocations.Feed feed) {
      return new FeedView(feed.version(),
          feed.revocations().stream().filter(r -> r.kind() == Revocation.Kind.API_KEY)
              .map(r -> new KeyView(r.apiKey(), r.organisationId(), r.at().toString())).toList(),
          feed.revocations().stream().filter(r -> r.kind() == Revocation.Kind.ORGANISATION)
              .map(r -> new OrganisationView(r.organisationId(), r.at().toString())).toList());
    }
  }

  record KeyView(String apiKey, String organisationId, String revokedAt) {
  }

  record OrganisationView(String organisationId, String revokedBefore) {
  }
}

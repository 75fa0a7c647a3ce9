package dev.lipa.common.security;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Follows auth-service's revocation feed ({@value #PATH}, behind the internal token) every {@code interval}, asking
 * with {@code If-None-Match} so an unchanged list costs a 304, and answers {@link #isRevoked} from the last list it
 * read: revoking a key or an organisation's tokens reaches this verifier within one interval, cached tokens included.
 *
 * <p>When the feed cannot be read the last known list stays in force (a verifier never refuses every request because
 * auth-service is briefly away): the first failure is a WARN, {@code alertAfterFailures} in a row an ERROR, repeated
 * about once a minute while it lasts, and the recovery an INFO. Until the first successful read a verifier knows no
 * revocation.
 */
public class RevocationFeed implements Revocations, AutoCloseable {

  /** Where auth-service serves the feed. */
  public static final String PATH = "/internal/v1/revocations";
  private static final Logger log = LoggerFactory.getLogger(RevocationFeed.class);
  private static final String INTERNAL_TOKEN_HEADER = "X-Internal-Token";
  private static final Duration MAX_REQUEST_TIME = Duration.ofSeconds(3);

  private final URI uri;
  private final String internalToken;
  private final Duration interval;
  private final int alertAfterFailures;
  private final int repeatAlertEvery;
  private final Clock clock;
  private final HttpClient http;
  private final JsonMapper json = JsonMapper.builder().build();
  private volatile RevocationList current = RevocationList.EMPTY;
  private final AtomicInteger failures = new AtomicInteger();
  private volatile Instant failingSince;
  private ScheduledExecutorService poller;

  /**
   * @param uri the feed, normally auth-service's {@value #PATH}
   * @param internalToken the platform's internal token ({@code lipa.internal.token}); null or blank sends none
   * @param interval time between two polls
   * @param alertAfterFailures failed polls in a row before the ERROR
   */
  public RevocationFeed(URI uri, String internalToken, Duration interval, int alertAfterFailures, Clock clock) {
    if (interval == null || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("lipa.security.revocation-poll-interval must be positive");
    }
    if (alertAfterFailures < 1) {
      throw new IllegalArgumentException("lipa.security.revocation-alert-after-failures must be at least 1");
    }
    this.uri = uri;
    this.internalToken = internalToken == null || internalToken.isBlank() ? null : internalToken;
    this.interval = interval;
    this.alertAfterFailures = alertAfterFailures;
    this.repeatAlertEvery = (int) Math.max(1, Duration.ofMinutes(1).toMillis() / Math.max(1, interval.toMillis()));
    this.clock = clock;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  }

  /** Starts polling now and every interval after, on a daemon thread of its own. */
  public synchronized RevocationFeed start() {
    if (poller == null) {
      if (internalToken == null) {
        log.error("lipa.internal.token (LIPA_INTERNAL_TOKEN) is not set: the revocation feed at {} will refuse this "
            + "verifier, so revoked tokens stay valid here until they expire", uri);
      }
      // on every replica by nature: it refreshes this replica's own in-memory list, which only it reads
      poller = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("revocation-feed")
          .factory());
      poller.scheduleWithFixedDelay(this::poll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
    return this;
  }

  @Override
  public boolean isRevoked(VerifiedToken token) {
    return current.revokes(token);
  }

  /** The list in force. */
  public RevocationList current() {
    return current;
  }

  /** Failed polls since the last successful one. */
  public int consecutiveFailures() {
    return failures.get();
  }

  /** Reads the feed once; true when the list in force is the feed's (changed or not). Never throws. */
  public boolean poll() {
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(MAX_REQUEST_TIME).GET();
      if (internalToken != null) {
        request.header(INTERNAL_TOKEN_HEADER, internalToken);
      }
      RevocationList known = current;
      if (known.version() != null) {
        request.header("If-None-Match", "\"" + known.version() + "\"");
      }
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 304) {
        succeeded();
        return true;
      }
      if (response.statusCode() != 200) {
        failed("the feed answered " + response.statusCode());
        return false;
      }
      RevocationList read = RevocationList.parse(response.body(), json);
      if (!read.equals(known)) {
        log.info("revocation list {}: {} API keys and {} organisations revoked", read.version(),
            read.apiKeys().size(), read.organisations().size());
      }
      current = read;
      succeeded();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      failed(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
      return false;
    }
  }

  private void succeeded() {
    int failed = failures.getAndSet(0);
    if (failed >= alertAfterFailures) {
      log.info("the revocation feed at {} is readable again after {} failed polls since {}", uri, failed,
          failingSince);
    }
    failingSince = null;
  }

  private void failed(String reason) {
    int count = failures.incrementAndGet();
    if (count == 1) {
      failingSince = clock.instant();
    }
    if (count == alertAfterFailures
        || (count > alertAfterFailures && (count - alertAfterFailures) % repeatAlertEvery == 0)) {
      log.error("REVOCATION FEED UNREACHABLE: {} polls of {} failed since {} (last: {}); tokens revoked since then "
          + "are still accepted here; keeping the last known list ({} revocations, version {})", count, uri,
          failingSince, reason, current.size(), current.version());
    } else if (count == 1) {
      log.warn("cannot read the revocation feed at {} ({}); keeping the last known list", uri, reason);
    }
  }

  @Override
  public synchronized void close() {
    if (poller != null) {
      poller.shutdownNow();
      poller = null;
    }
  }
}

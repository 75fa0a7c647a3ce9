package dev.lipa.common.environment;

import java.util.Locale;
import java.util.Set;

/**
 * The two environments of the platform. An API key belongs to one; the tokens it mints carry it in the
 * {@link dev.lipa.common.security.TokenClaims#ENVIRONMENT} claim; each environment has its own services, stores and
 * topics, so records, balances, callbacks and lists of one are never seen from the other.
 *
 * <p>{@link #SANDBOX} runs on the rails' simulators and has the test-only features (top-ups, simulated deposits,
 * magic numbers, test cards, the opening float); {@link #LIVE} moves real money through real connectors and has
 * none of them. The operational paths of the sandbox carry the {@code /sandbox} segment
 * ({@code /api/sandbox/v1/stk/new}); the live ones are the same without it ({@code /api/v1/stk/new}).
 */
public enum Environment {

  SANDBOX("sandbox"),
  LIVE("live");

  private final String claim;

  Environment(String claim) {
    this.claim = claim;
  }

  /** The name in tokens, keys, configuration and messages: {@code sandbox} or {@code live}. */
  public String claim() {
    return claim;
  }

  /**
   * The environment named by a token's claim. A token without the claim is a sandbox token: the tokens minted before
   * environments existed were all sandbox tokens.
   *
   * @throws IllegalArgumentException for any other value
   */
  public static Environment fromClaim(Object claim) {
    if (claim == null) {
      return SANDBOX;
    }
    return of(claim.toString());
  }

  /**
   * The environment of this exact name ({@code sandbox} or {@code live}, any case, as configuration writes it).
   *
   * @throws IllegalArgumentException for any other name
   */
  public static Environment of(String name) {
    String lower = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    for (Environment environment : values()) {
      if (environment.claim.equals(lower)) {
        return environment;
      }
    }
    throw new IllegalArgumentException("unknown environment '" + name + "' (sandbox or live)");
  }

  /**
   * The environment an operational path is for: {@code /api/sandbox/...} is the sandbox, {@code /api/v1/<resource>/...}
   * of an operational resource is live; null for a path that names none (token endpoints, Tanzanian lookups, callbacks
   * configuration), whose environment is the token's. Give it the decoded, normalised path.
   */
  public static Environment ofPath(String path) {
    if (path == null) {
      return null;
    }
    if (path.startsWith(SANDBOX_PREFIX)) {
      return SANDBOX;
    }
    if (!path.startsWith(LIVE_PREFIX)) {
      return null;
    }
    int end = path.indexOf('/', LIVE_PREFIX.length());
    String resource = path.substring(LIVE_PREFIX.length(), end < 0 ? path.length() : end);
    return OPERATIONAL_RESOURCES.contains(resource) ? LIVE : null;
  }

  private static final String SANDBOX_PREFIX = "/api/sandbox/";
  private static final String LIVE_PREFIX = "/api/v1/";
  /** The resources of the operational paths: {@code /api/sandbox/v1/<resource>} and {@code /api/v1/<resource>}. */
  private static final Set<String> OPERATIONAL_RESOURCES = Set.of("stk", "bank", "send-money", "till", "paybill",
      "de-allocations", "balance", "balances", "checkout-sessions");

  /** The message of the 403 a key of this environment gets on a path of the other one. */
  public String wrongPathMessage() {
    return this == SANDBOX
        ? "This is a sandbox key: it works on the sandbox paths (/api/sandbox/v1/...) only"
        : "This is a live key: it works on the live paths (/api/v1/... without /sandbox) only";
  }
}

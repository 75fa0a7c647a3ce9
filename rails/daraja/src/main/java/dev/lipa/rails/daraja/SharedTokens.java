package dev.lipa.rails.daraja;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Where the access token of a Daraja app is kept for everyone who uses the app. Daraja invalidates an app's earlier
 * tokens whenever a new one is generated, so every client of one app (every replica of a service, every shortcode the
 * app serves) must use the same token and refresh it one at a time; this is where they agree on it.
 *
 * <p>A store keeps, per app, the current token with its <b>generation</b> (a number that grows with every token it
 * publishes) and at most one live <b>claim</b>: the right to refresh, granted to one caller for a bounded time, by a
 * compare-and-set on the generation the caller saw. A claimant that dies holds nobody up beyond its claim's end; one
 * that outlives its claim cannot publish once another caller has claimed (the claim's id is the fencing check). A token
 * is marked refused only while it is still the current generation, so a late refusal of an old token never discards a
 * newer one.
 *
 * <p>{@link #inMemory()} is one JVM's memory (the connector's default: right for one replica). A service with several
 * replicas passes a store in its database.
 */
public interface SharedTokens {

  /**
   * A Daraja app: {@code id} is the SHA-256 of its consumer key, never the key itself; Daraja's tokens belong to the
   * app, so two shortcodes served by one app share one token. {@code shortcode} is the shortcode asking, for people
   * reading the store, not part of the identity.
   */
  record App(String id, String shortcode) {

    public static App of(DarajaConfig config) {
      try {
        byte[] digest = MessageDigest.getInstance("SHA-256")
            .digest(config.consumerKey().getBytes(StandardCharsets.UTF_8));
        return new App("sha256:" + HexFormat.of().formatHex(digest), config.shortcode());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * The token a store holds for an app. {@code value} is null when the store cannot read it (then it is unusable, as a
   * refused one is, and the next caller replaces it).
   */
  record Token(long generation, String value, Instant issuedAt, Instant expiresAt, boolean refused) {

    /** Whether it may be sent: readable and not refused (its age is the caller's rule). */
    public boolean usable() {
      return value != null && !refused;
    }

    @Override
    public String toString() {
      // a bearer token is a credential: never in a log line or an exception message
      return "Token[generation=" + generation + ", expiresAt=" + expiresAt + ", refused=" + refused + "]";
    }
  }

  /** The right to refresh an app's token from {@code generation}, until {@code until}; {@code id} fences it. */
  record Claim(App app, String id, long generation, Instant until) {
  }

  /** The app's current token; empty when it has none yet. */
  Optional<Token> current(App app);

  /**
   * Claims the right to refresh the app's token until {@code until}, if its generation is still {@code seen} (0: it
   * has none) and no other claim is live at {@code now}; empty otherwise (someone else refreshes, or already did).
   */
  Optional<Claim> claim(App app, long seen, Instant now, Instant until);

  /**
   * Publishes a new token as the next generation, if {@code claim} is still the app's claim (also after its end, as
   * long as nobody claimed since), and ends the claim; empty when another caller has claimed meanwhile.
   */
  Optional<Token> publish(Claim claim, String value, Instant issuedAt, Instant expiresAt);

  /** Ends {@code claim} without a new token (the refresh failed), so the next caller may try at once. */
  void release(Claim claim);

  /** Marks the token of {@code generation} refused, if it is still the app's current one; otherwise does nothing. */
  void refuse(App app, long generation);

  /** A store in this JVM's memory: one replica's token, as the connector has always kept it. */
  static SharedTokens inMemory() {
    return new InMemoryTokens();
  }
}

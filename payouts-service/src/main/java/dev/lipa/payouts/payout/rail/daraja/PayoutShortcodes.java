package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.common.rail.ShortcodeFields;
import dev.lipa.common.web.ApiException;
import dev.lipa.rails.daraja.credential.Fingerprints;
import dev.lipa.rails.daraja.credential.SecurityCredentials;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;

/**
 * The operator's B2C/B2B shortcodes: create or change one, list them, read one (never a secret: whether it is set and
 * its fingerprint), and the one serving a product for the rail, with its secrets opened. The initiator's password is
 * never accepted: only the security credential made from it.
 */
@Service
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
public class PayoutShortcodes {

  static final String B2C = "b2c";
  static final String B2B = "b2b";
  static final List<String> PRODUCTS = List.of(B2C, B2B);
  private static final Set<String> FIELDS = Set.of("consumerKey", "consumerSecret", "initiatorName",
      "securityCredential", "products", "reconciled");
  private static final List<String> SECRETS = List.of("consumerKey", "consumerSecret", "securityCredential");
  private static final Pattern INITIATOR = Pattern.compile("[A-Za-z0-9_.@-]{1,64}");
  private static final Logger log = LoggerFactory.getLogger(PayoutShortcodes.class);

  private final PayoutShortcodeStore store;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  PayoutShortcodes(PayoutShortcodeStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** A secret as the API shows it: whether it is set, and its fingerprint. */
  public record SecretState(boolean set, String fingerprint) {
  }

  /** A shortcode as the API shows it. */
  public record View(String shortcode, String initiatorName, List<String> products, boolean reconciled,
      Map<String, SecretState> secrets, Instant updatedAt) {
  }

  /** A shortcode with its secrets opened, for the rail only. */
  record Opened(String shortcode, String initiatorName, String consumerKey, String consumerSecret,
      String securityCredential, String callbackSegment, long version) {

    @Override
    public String toString() {
      return "Opened[shortcode=" + shortcode + ", version=" + version + "]"; // never the secrets
    }
  }

  /** The result of a change: the view, and whether the shortcode was new. */
  public record Saved(View view, boolean created) {
  }

  /**
   * Creates the shortcode or changes the fields the body names (a secret left out keeps its stored value).
   *
   * @throws dev.lipa.common.web.ValidationException naming every failing field (nothing is stored)
   * @throws ApiException 409 when another shortcode serves one of its products, or another change came first
   */
  public Saved put(String shortcode, JsonNode body) {
    ShortcodeFields.checkShortcode(shortcode);
    ShortcodeFields fields = ShortcodeFields.of(body, FIELDS);
    Optional<PayoutShortcode> existing = store.find(shortcode);
    boolean create = existing.isEmpty();
    String initiator = fields.text("initiatorName", create, INITIATOR,
        "must be the API operator's user name (1 to 64 letters, digits, _ . @ -)");
    Map<String, String> secrets = new TreeMap<>();
    for (String field : SECRETS) {
      String value = fields.secret(field, create);
      if (value != null) {
        secrets.put(field, value);
      }
    }
    String credential = secrets.get("securityCredential");
    if (credential != null && !SecurityCredentials.isWellFormed(credential)) {
      // a password typed where the credential belongs is refused, and never stored
      secrets.remove("securityCredential");
      fields.errors().add("securityCredential", "securityCredential must be the base64 credential made from the "
          + "initiator's password with Safaricom's certificate; " + ShortcodeFields.NO_PASSWORD);
    }
    Set<String> products = products(fields);
    Boolean reconciled = fields.bool("reconciled");
    fields.errors().throwIfAny();

    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Map<String, String> fingerprints = new TreeMap<>(existing.map(PayoutShortcode::fingerprints).orElse(Map.of()));
    secrets.forEach((field, value) -> fingerprints.put(field, Fingerprints.of(value)));
    PayoutShortcode next = new PayoutShortcode(shortcode,
        initiator != null ? initiator : existing.map(PayoutShortcode::initiatorName).orElseThrow(),
        products != null ? products : existing.map(PayoutShortcode::products).orElse(Set.of()),
        reconciled != null ? reconciled : existing.map(PayoutShortcode::reconciled).orElse(true),
        sealedOr(shortcode, secrets.get("consumerKey"), existing.map(PayoutShortcode::sealedConsumerKey)),
        sealedOr(shortcode, secrets.get("consumerSecret"), existing.map(PayoutShortcode::sealedConsumerSecret)),
        sealedOr(shortcode, secrets.get("securityCredential"),
            existing.map(PayoutShortcode::sealedSecurityCredential)),
        fingerprints, existing.map(PayoutShortcode::callbackSegment).orElseGet(this::segment),
        existing.map(PayoutShortcode::version).orElse(0L) + 1, now);
    boolean saved;
    try {
      saved = store.save(next, existing.map(PayoutShortcode::version).orElse(0L));
    } catch (PayoutShortcodeStore.ProductTaken e) {
      throw ApiException.conflict("another shortcode serves one of " + next.products()
          + ": take the product off it first (each product is served by one shortcode)");
    }
    if (!saved) {
      throw ApiException.conflict("shortcode " + shortcode + " was changed meanwhile; read it and try again");
    }
    log.info("payout shortcode {} {} (products {}, reconciled {}, secrets changed: {})", shortcode,
        create ? "created" : "changed", next.products(), next.reconciled(), secrets.keySet());
    return new Saved(view(next), create);
  }

  public List<View> list() {
    return store.list().stream().map(PayoutShortcodes::view).toList();
  }

  public Optional<View> find(String shortcode) {
    ShortcodeFields.checkShortcode(shortcode);
    return store.find(shortcode).map(PayoutShortcodes::view);
  }

  /** Whether a shortcode serves the product (nothing is opened). */
  boolean serves(String product) {
    return store.serving(product).isPresent();
  }

  /** The shortcode serving the product, its secrets opened. */
  Optional<Opened> serving(String product) {
    return store.serving(product).map(this::opened);
  }

  /** The shortcode with this shortcode number, its secrets opened (reconciliation of an earlier payout). */
  Optional<Opened> opened(String shortcode) {
    return store.find(shortcode).map(this::opened);
  }

  /** The shortcodes the funds reconciliation asks, their secrets opened. */
  List<Opened> reconciled() {
    return store.list().stream().filter(PayoutShortcode::reconciled).map(this::opened).toList();
  }

  /** The shortcode whose ResultURL carries this segment (results). */
  Optional<PayoutShortcode> byCallbackSegment(String segment) {
    return store.list().stream().filter(s -> s.callbackSegment().equals(segment)).findFirst();
  }

  private Opened opened(PayoutShortcode s) {
    return new Opened(s.shortcode(), s.initiatorName(), store.open(s.shortcode(), s.sealedConsumerKey()),
        store.open(s.shortcode(), s.sealedConsumerSecret()), store.open(s.shortcode(), s.sealedSecurityCredential()),
        s.callbackSegment(), s.version());
  }

  private static Set<String> products(ShortcodeFields fields) {
    JsonNode node = fields.node("products");
    if (node == null || node.isNull()) {
      return null;
    }
    Set<String> products = new TreeSet<>();
    if (!node.isArray()) {
      fields.errors().add("products", "products must be an array of " + PRODUCTS);
      return null;
    }
    for (JsonNode item : node) {
      if (!item.isString() || !PRODUCTS.contains(item.stringValue())) {
        fields.errors().add("products", "products must be an array of " + PRODUCTS);
        return null;
      }
      products.add(item.stringValue());
    }
    return products;
  }

  private String sealedOr(String shortcode, String secret, Optional<String> stored) {
    return secret != null ? store.seal(shortcode, secret) : stored.orElseThrow();
  }

  private String segment() {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static View view(PayoutShortcode s) {
    Map<String, SecretState> secrets = new TreeMap<>();
    for (String field : SECRETS) {
      String fingerprint = s.fingerprints().get(field);
      secrets.put(field, new SecretState(fingerprint != null, fingerprint));
    }
    return new View(s.shortcode(), s.initiatorName(), List.copyOf(s.products()), s.reconciled(), secrets,
        s.updatedAt());
  }
}

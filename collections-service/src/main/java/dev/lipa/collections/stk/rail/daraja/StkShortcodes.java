package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.common.rail.ShortcodeFields;
import dev.lipa.common.web.ApiException;
import dev.lipa.rails.daraja.StkTransactionType;
import dev.lipa.rails.daraja.credential.Fingerprints;
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
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;

/**
 * The operator's STK shortcodes: create or change one, list them, read one (never a secret: whether it is set and its
 * fingerprint), and the active one for the rail with its secrets opened.
 */
@Service
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
public class StkShortcodes {

  static final String PAYBILL = "paybill";
  static final String BUY_GOODS = "buy-goods";
  private static final Set<String> FIELDS = Set.of("transactionType", "partyB", "consumerKey", "consumerSecret",
      "passkey", "active");
  private static final List<String> SECRETS = List.of("consumerKey", "consumerSecret", "passkey");
  private static final Pattern TYPE = Pattern.compile(PAYBILL + "|" + BUY_GOODS);
  private static final Logger log = LoggerFactory.getLogger(StkShortcodes.class);

  private final StkShortcodeStore store;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  StkShortcodes(StkShortcodeStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** A secret as the API shows it: whether it is set, and its fingerprint. */
  public record SecretState(boolean set, String fingerprint) {
  }

  /** A shortcode as the API shows it. */
  public record View(String shortcode, String transactionType, String partyB, boolean active,
      Map<String, SecretState> secrets, Instant updatedAt) {
  }

  /** The active shortcode with its secrets opened, for the rail only. */
  record Opened(String shortcode, StkTransactionType type, String partyB, String consumerKey, String consumerSecret,
      String passkey, String callbackSegment, long version) {

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
   * @throws ApiException 409 when it is to be active and another shortcode is, or when another change came first
   */
  public Saved put(String shortcode, JsonNode body) {
    ShortcodeFields.checkShortcode(shortcode);
    ShortcodeFields fields = ShortcodeFields.of(body, FIELDS);
    Optional<StkShortcode> existing = store.find(shortcode);
    boolean create = existing.isEmpty();
    String typeText = fields.text("transactionType", create, TYPE, "must be paybill or buy-goods");
    StkTransactionType type = typeText == null ? existing.map(StkShortcode::type).orElse(null)
        : BUY_GOODS.equals(typeText) ? StkTransactionType.CUSTOMER_BUY_GOODS_ONLINE
            : StkTransactionType.CUSTOMER_PAY_BILL_ONLINE;
    String partyB = fields.text("partyB", false, ShortcodeFields.SHORTCODE, "must be the till's 5 to 9 digits");
    if (partyB == null && !fields.has("partyB") && typeText == null) {
      partyB = existing.map(StkShortcode::partyB).orElse(null);
    }
    if (type == StkTransactionType.CUSTOMER_BUY_GOODS_ONLINE && partyB == null && !fields.errors().has("partyB")) {
      fields.errors().add("partyB", "partyB (the till) is required for a buy-goods shortcode");
    }
    if (type == StkTransactionType.CUSTOMER_PAY_BILL_ONLINE && partyB != null) {
      fields.errors().add("partyB", "a paybill shortcode is its own PartyB: leave partyB out");
    }
    Map<String, String> secrets = new TreeMap<>();
    for (String field : SECRETS) {
      String value = fields.secret(field, create);
      if (value != null) {
        secrets.put(field, value);
      }
    }
    Boolean active = fields.bool("active");
    fields.errors().throwIfAny();

    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Map<String, String> fingerprints = new TreeMap<>(existing.map(StkShortcode::fingerprints).orElse(Map.of()));
    secrets.forEach((field, value) -> fingerprints.put(field, Fingerprints.of(value)));
    StkShortcode next = new StkShortcode(shortcode, type, partyB,
        active != null ? active : existing.map(StkShortcode::active).orElse(false),
        sealedOr(shortcode, secrets.get("consumerKey"), existing.map(StkShortcode::sealedConsumerKey)),
        sealedOr(shortcode, secrets.get("consumerSecret"), existing.map(StkShortcode::sealedConsumerSecret)),
        sealedOr(shortcode, secrets.get("passkey"), existing.map(StkShortcode::sealedPasskey)),
        fingerprints, existing.map(StkShortcode::callbackSegment).orElseGet(this::segment),
        existing.map(StkShortcode::version).orElse(0L) + 1, now);
    boolean saved;
    try {
      saved = store.save(next, existing.map(StkShortcode::version).orElse(0L));
    } catch (StkShortcodeStore.ActiveTaken e) {
      throw ApiException.conflict("another STK shortcode is active: make it inactive first (at most one is active)");
    }
    if (!saved) {
      throw ApiException.conflict("shortcode " + shortcode + " was changed meanwhile; read it and try again");
    }
    log.info("STK shortcode {} {} (type {}, active {}, secrets changed: {})", shortcode,
        create ? "created" : "changed", type, next.active(), secrets.keySet());
    return new Saved(view(next), create);
  }

  public List<View> list() {
    return store.list().stream().map(StkShortcodes::view).toList();
  }

  public Optional<View> find(String shortcode) {
    ShortcodeFields.checkShortcode(shortcode);
    return store.find(shortcode).map(StkShortcodes::view);
  }

  /** The active shortcode, its secrets opened; empty when none is active. */
  Optional<Opened> active() {
    return store.findActive().map(s -> new Opened(s.shortcode(), s.type(), s.partyB(),
        store.open(s.shortcode(), s.sealedConsumerKey()), store.open(s.shortcode(), s.sealedConsumerSecret()),
        store.open(s.shortcode(), s.sealedPasskey()), s.callbackSegment(), s.version()));
  }

  /** Whether a shortcode is active (nothing is opened). */
  boolean hasActive() {
    return store.findActive().isPresent();
  }

  /** The shortcode whose CallBackURLs carry this segment (callbacks). */
  Optional<StkShortcode> byCallbackSegment(String segment) {
    return store.list().stream().filter(s -> s.callbackSegment().equals(segment)).findFirst();
  }

  private String sealedOr(String shortcode, String secret, Optional<String> stored) {
    return secret != null ? store.seal(shortcode, secret) : stored.orElseThrow();
  }

  private String segment() {
    byte[] bytes = new byte[24];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static View view(StkShortcode s) {
    Map<String, SecretState> secrets = new TreeMap<>();
    for (String field : SECRETS) {
      String fingerprint = s.fingerprints().get(field);
      secrets.put(field, new SecretState(fingerprint != null, fingerprint));
    }
    return new View(s.shortcode(), s.type() == StkTransactionType.CUSTOMER_BUY_GOODS_ONLINE ? BUY_GOODS : PAYBILL,
        s.partyB(), s.active(), secrets, s.updatedAt());
  }
}

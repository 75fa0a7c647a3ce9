package dev.lipa.dispatcher.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import dev.lipa.common.crypto.MasterKeyRing;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.crypto.SecretRewrap;
import dev.lipa.common.crypto.SecretUnreadableException;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.SharedInfra;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Signing secrets as stored: sealed under the master key, earlier versions' forms read and converted. */
class SigningSecretsAtRestIntegrationTests {

  private static final SecretEnvelope ENVELOPE = new SecretEnvelope(MasterKeyRing.parse(SharedInfra.MASTER_KEYS));
  private static final byte[] LEGACY_KEY = "the-key-of-the-earlier-version!!".getBytes(StandardCharsets.US_ASCII);
  private static final String LEGACY_KEY_TEXT = Base64.getEncoder().encodeToString(LEGACY_KEY);

  private static MongoClient mongo;
  private String database;
  private final OrganisationId organisation = OrganisationId.of(UUID.randomUUID().toString());

  @BeforeAll
  static void connect() {
    mongo = MongoClients.create(SharedInfra.mongoUri());
  }

  @AfterAll
  static void disconnect() {
    mongo.close();
  }

  @BeforeEach
  void freshDatabase() {
    database = "lipa-dispatcher-secrets-" + UUID.randomUUID();
  }

  SigningSecretStore store(String legacyKey) {
    return new SigningSecretStore(mongo, database, ENVELOPE, properties(legacyKey));
  }

  static SigningProperties properties(String legacyKey) {
    return new SigningProperties(Duration.ofHours(24), legacyKey, Duration.ZERO);
  }

  SigningSecrets secrets(SigningSecretStore store) {
    return new SigningSecrets(store, properties(null), Clock.systemUTC());
  }

  MongoCollection<Document> raw() {
    return mongo.getDatabase(database).getCollection("signing_secrets");
  }

  Document stored() {
    return raw().find(new Document("_id", organisation.value())).first();
  }

  /** A secret as an earlier version encrypted it: {@code v1:} and AES-256-GCM under its key, the organisation as AAD. */
  String earlierEncrypted(String secret) throws Exception {
    byte[] iv = new byte[12];
    new SecureRandom().nextBytes(iv);
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(LEGACY_KEY, "AES"), new GCMParameterSpec(128, iv));
    cipher.updateAAD(organisation.value().getBytes(StandardCharsets.UTF_8));
    byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
    return "v1:" + Base64.getEncoder().encodeToString(ByteBuffer.allocate(12 + sealed.length).put(iv).put(sealed)
        .array());
  }

  @Test
  void storesIssuedSecretsSealedUnderTheMasterKeyWithNoSecretInTheDocument() {
    SigningSecrets secrets = secrets(store(null));
    String first = secrets.issue(organisation).secret();
    String second = secrets.issue(organisation).secret();

    Document document = stored();
    assertThat(document.getString("current")).startsWith("lipa-sealed:v1:test-k1:");
    assertThat(document.getString("previous")).startsWith("lipa-sealed:v1:test-k1:");
    for (String secret : List.of(first, second)) {
      assertThat(document.toJson()).doesNotContain(secret.substring("whsec_".length()))
          .doesNotContain(Base64.getUrlEncoder().withoutPadding().encodeToString(secret.getBytes()).substring(8, 30));
    }
    assertThat(secrets.keys(organisation)).containsExactly(WebhookSignature.key(second), WebhookSignature.key(first));
  }

  @Test
  void sealsEvenTheSecretMadeForAnOrganisationThatNeverAskedForOne() {
    SigningSecrets secrets = secrets(store(null));

    byte[] key = secrets.keys(organisation).getFirst();

    assertThat(stored().getString("current")).startsWith("lipa-sealed:v1:test-k1:");
    assertThat(stored().toJson()).doesNotContain(Base64.getEncoder().encodeToString(key));
  }

  @Test
  void readsTheFormsEarlierVersionsStoredAndTheRewrapSealsThemWithoutChangingTheSecrets() throws Exception {
    String current = "whsec_" + Base64.getEncoder().encodeToString("current-secret-of-32-bytes-long!".getBytes());
    String previous = "whsec_" + Base64.getEncoder().encodeToString("previous-secret-of-32-bytes-lon!".getBytes());
    raw().insertOne(new Document("_id", organisation.value()).append("current", earlierEncrypted(current))
        .append("previous", "plain:" + previous).append("previousExpiresAt", new Date(System.currentTimeMillis()
            + 3_600_000)).append("createdAt", new Date()).append("revealed", true));
    SigningSecretStore store = store(LEGACY_KEY_TEXT);
    assertThat(secrets(store).keys(organisation))
        .containsExactly(WebhookSignature.key(current), WebhookSignature.key(previous));

    SecretRewrap.Result result = new SecretRewrap(ENVELOPE).run(store);

    assertThat(result.rewrapped()).isEqualTo(2);
    Document document = stored();
    assertThat(document.getString("current")).startsWith("lipa-sealed:v1:test-k1:");
    assertThat(document.getString("previous")).startsWith("lipa-sealed:v1:test-k1:");
    assertThat(document.toJson()).doesNotContain(previous.substring(6)).doesNotContain(current.substring(6));
    // the earlier key is no longer needed
    assertThat(secrets(store(null)).keys(organisation))
        .containsExactly(WebhookSignature.key(current), WebhookSignature.key(previous));
    assertThat(new SecretRewrap(ENVELOPE).run(store).rewrapped()).isZero();
  }

  @Test
  void anEarlierEncryptedSecretWithoutTheEarlierKeyFailsLoudlyAndStaysForALaterRewrap() throws Exception {
    String encrypted = earlierEncrypted("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
    raw().insertOne(new Document("_id", organisation.value()).append("current", encrypted)
        .append("createdAt", new Date()).append("revealed", true));
    SigningSecretStore withoutKey = store(null);

    assertThatThrownBy(() -> secrets(withoutKey).keys(organisation)).isInstanceOf(SecretUnreadableException.class)
        .hasMessageContaining("lipa.dispatcher.signing.encryption-key");
    assertThat(new SecretRewrap(ENVELOPE).run(withoutKey).unreadable()).isEqualTo(1);
    assertThat(stored().getString("current")).isEqualTo(encrypted);
  }

  @Test
  void aSealedSecretCopiedToAnotherOrganisationsRecordDoesNotOpen() {
    SigningSecrets secrets = secrets(store(null));
    secrets.issue(organisation);
    OrganisationId other = OrganisationId.of(UUID.randomUUID().toString());
    raw().insertOne(new Document("_id", other.value()).append("current", stored().getString("current"))
        .append("createdAt", new Date()).append("revealed", true));

    assertThatThrownBy(() -> secrets.keys(other)).isInstanceOf(SecretUnreadableException.class);
  }
}

package dev.lipa.dispatcher.signing;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.lipa.common.crypto.MasterKeyRing;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.LostAnswerProxy;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas creating an organisation's first signing secret at once: on a real MongoDB the loser's upsert fails
 * with a duplicate key ({@link LostAnswerProxy#answerWithDuplicateKey} answers as the store would), and the loser
 * returns the winner's secret instead of failing or replacing it.
 */
class SigningSecretRaceIntegrationTests {

  private static final SecretEnvelope ENVELOPE = new SecretEnvelope(MasterKeyRing.parse(SharedInfra.MASTER_KEYS));

  private final LostAnswerProxy proxy = LostAnswerProxy.shared();
  private final MongoClient client = MongoClients.create(proxy.mongoUri(Duration.ofSeconds(5)));
  private final String database = "lipa-dispatcher-secret-race-" + UUID.randomUUID();
  private final OrganisationId organisation = OrganisationId.of(UUID.randomUUID().toString());

  @AfterEach
  void close() {
    proxy.disarm();
    client.close();
  }

  @Test
  void theLoserOfTheFirstSecretsRaceReturnsTheWinnersSecret() {
    SigningSecretStore store = new SigningSecretStore(client, database, ENVELOPE,
        new SigningProperties(Duration.ofHours(24), null, Duration.ZERO));
    String winners = store.seal(organisation, "the-winners-secret");
    SharedInfra.mongoClient().getDatabase(database).getCollection(SigningSecretStore.COLLECTION).insertOne(
        new Document("_id", organisation.value()).append("current", winners)
            .append("createdAt", new Date()).append("revealed", true));
    int before = proxy.duplicateKeyAnswers();
    proxy.answerWithDuplicateKey(LostAnswerProxy.command("findAndModify", SigningSecretStore.COLLECTION));

    SigningSecretStore.Stored stored = store.createIfAbsent(organisation, store.seal(organisation, "the-losers"),
        Instant.now(), false);

    assertThat(proxy.duplicateKeyAnswers()).isEqualTo(before + 1);
    assertThat(store.open(organisation, stored.current())).isEqualTo("the-winners-secret");
    assertThat(stored.revealed()).isTrue();
  }
}

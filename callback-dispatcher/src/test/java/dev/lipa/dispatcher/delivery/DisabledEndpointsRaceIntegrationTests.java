package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.LostAnswerProxy;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas disabling one endpoint at once: on a real MongoDB the loser's upsert fails with a duplicate key
 * ({@link LostAnswerProxy#answerWithDuplicateKey} answers as the store would); the endpoint is disabled all the same.
 */
class DisabledEndpointsRaceIntegrationTests {

  private final LostAnswerProxy proxy = LostAnswerProxy.shared();
  private final MongoClient client = MongoClients.create(proxy.mongoUri(Duration.ofSeconds(5)));
  private final String database = "lipa-dispatcher-disabled-race-" + UUID.randomUUID();

  @AfterEach
  void close() {
    proxy.disarm();
    client.close();
  }

  @Test
  void theLoserOfARaceToDisableAnEndpointFindsItDisabled() {
    OrganisationId organisation = OrganisationId.of(UUID.randomUUID().toString());
    String url = "https://merchant.example/gone";
    DisabledEndpoints endpoints = new DisabledEndpoints(client, database, Clock.systemUTC());
    SharedInfra.mongoClient().getDatabase(database).getCollection(DisabledEndpoints.COLLECTION).insertOne(
        new Document("_id", organisation.value() + " " + url).append("organisationId", organisation.value())
            .append("url", url).append("disabledAt", new Date()).append("byCallbackId", "the-winners"));
    int before = proxy.duplicateKeyAnswers();
    proxy.answerWithDuplicateKey(LostAnswerProxy.command("update", DisabledEndpoints.COLLECTION));

    endpoints.disable(organisation, url, "the-losers");

    assertThat(proxy.duplicateKeyAnswers()).isEqualTo(before + 1);
    assertThat(endpoints.isDisabled(organisation, url)).isTrue();
  }
}

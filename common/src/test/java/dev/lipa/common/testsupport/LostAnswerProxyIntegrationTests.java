package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoServerException;
import com.mongodb.MongoSocketException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import java.time.Duration;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lost-answer proxy does what the tests built on it rely on: the chosen write is applied, its answer never
 * arrives, and only that one answer is lost; a chosen upsert is answered with the duplicate-key error of a lost race. It also shows what the embedded store cannot prove: the driver's
 * retryable writes (on by default) do not retry here, since the store is a standalone server without sessions; the
 * caller's own retry is what the platform's tests exercise.
 */
class LostAnswerProxyIntegrationTests {

  private final LostAnswerProxy proxy = LostAnswerProxy.shared();
  private final MongoClient client = MongoClients.create(proxy.mongoUri(Duration.ofSeconds(5)));
  private final String collectionName = "lost_answers_" + UUID.randomUUID().toString().replace("-", "");
  private final MongoCollection<Document> throughProxy = client.getDatabase("lipa-proxy-tests")
      .getCollection(collectionName);
  private final MongoCollection<Document> direct = SharedInfra.mongoClient().getDatabase("lipa-proxy-tests")
      .getCollection(collectionName);

  @AfterEach
  void close() {
    proxy.disarm();
    client.close();
  }

  @Test
  void theWriteIsAppliedButItsAnswerNeverArrives() {
    throughProxy.insertOne(new Document("_id", "warm-up")); // a connection exists before the lost answer
    int lostBefore = proxy.lostAnswers();
    proxy.loseTheAnswerTo(LostAnswerProxy.command("insert", collectionName));

    assertThatThrownBy(() -> throughProxy.insertOne(new Document("_id", "credit-1").append("amount", 150)))
        .isInstanceOf(MongoSocketException.class);

    assertThat(proxy.lostAnswers()).isEqualTo(lostBefore + 1);
    assertThat(direct.find(Filters.eq("_id", "credit-1")).first()).containsEntry("amount", 150);
  }

  @Test
  void losesOneAnswerOnlyAndOnlyOfTheChosenCommand() {
    proxy.loseTheAnswerTo(LostAnswerProxy.command("insert", collectionName));

    // another command on the collection, and an insert into another collection, are answered
    assertThat(throughProxy.countDocuments()).isZero();
    client.getDatabase("lipa-proxy-tests").getCollection(collectionName + "_other").insertOne(new Document("a", 1));
    assertThatThrownBy(() -> throughProxy.insertOne(new Document("_id", "first")))
        .isInstanceOf(MongoSocketException.class);
    throughProxy.insertOne(new Document("_id", "second"));

    assertThat(direct.countDocuments()).isEqualTo(2);
  }

  @Test
  void answersAChosenUpsertWithADuplicateKeyErrorAndLeavesTheStoreAsTheWinnerLeftIt() {
    direct.insertOne(new Document("_id", "account-1").append("owner", "the other replica"));
    int before = proxy.duplicateKeyAnswers();
    proxy.answerWithDuplicateKey(LostAnswerProxy.command("update", collectionName));

    assertThatThrownBy(() -> throughProxy.updateOne(Filters.eq("_id", "account-1"),
        Updates.setOnInsert("owner", "this replica"), new UpdateOptions().upsert(true)))
        .isInstanceOfSatisfying(MongoServerException.class, e -> assertThat(e.getCode()).isEqualTo(11000));

    assertThat(proxy.duplicateKeyAnswers()).isEqualTo(before + 1);
    assertThat(direct.find(Filters.eq("_id", "account-1")).first()).containsEntry("owner", "the other replica");
    // the connection goes on: the next command is relayed as usual
    assertThat(throughProxy.countDocuments()).isEqualTo(1);
  }
}

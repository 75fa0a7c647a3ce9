package dev.lipa.common.once;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import dev.lipa.common.testsupport.SharedInfra;
import java.util.ArrayList;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which unique key refused an insert, as the store itself says it (the Mongo wire server of {@link SharedInfra}). */
class UniqueKeysIntegrationTests {

  private static final UniqueKeys KEYS = UniqueKeys.standard("thing");
  private MongoCollection<Document> collection;

  @BeforeEach
  void freshCollection() {
    collection = SharedInfra.mongoClient().getDatabase("unique-keys-tests")
        .getCollection("things-" + UUID.randomUUID());
    KEYS.createIndexes(collection);
    insert(document(1).append("referenceKey", "org\nref-1").append("idempotencyKey", "key-1"));
  }

  private Insert insert(Document document) {
    return KEYS.insert(() -> collection.insertOne(document));
  }

  private static Document document(long id) {
    return new Document("_id", UUID.randomUUID().toString()).append("id", id);
  }

  @Test
  void createsTheThreeIndexesByTheirNames() {
    assertThat(collection.listIndexes().map(index -> index.getString("name")).into(new ArrayList<>()))
        .contains("thing_id_unique", "thing_reference_unique", "thing_idempotency_unique");
  }

  @Test
  void tellsATakenIdFromATakenReferenceFromATakenKey() {
    assertThat(insert(document(1))).isEqualTo(Insert.ID_TAKEN);
    assertThat(insert(document(2).append("referenceKey", "org\nref-1"))).isEqualTo(Insert.REFERENCE_TAKEN);
    assertThat(insert(document(3).append("idempotencyKey", "key-1"))).isEqualTo(Insert.KEY_TAKEN);
    assertThat(collection.countDocuments()).isEqualTo(1);
  }

  @Test
  void recordsWithoutAReferenceOrAKeyNeverCollide() {
    assertThat(insert(document(2))).isEqualTo(Insert.WRITTEN);
    assertThat(insert(document(3))).isEqualTo(Insert.WRITTEN);
  }

  @Test
  void aReferenceIdThatSpellsAnotherIndexNameIsStillTheReference() {
    insert(document(2).append("referenceKey", "org\nthing_id_unique idempotencyKey"));

    assertThat(insert(document(3).append("referenceKey", "org\nthing_id_unique idempotencyKey")))
        .isEqualTo(Insert.REFERENCE_TAKEN);
  }

  @Test
  void aDuplicateOnAnyOtherIndexPropagates() {
    Document first = document(2);
    insert(first);

    assertThatThrownBy(() -> insert(new Document("_id", first.getString("_id")).append("id", 3L)))
        .isInstanceOf(MongoWriteException.class);
  }
}

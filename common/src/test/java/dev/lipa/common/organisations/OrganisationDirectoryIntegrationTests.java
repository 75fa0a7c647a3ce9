package dev.lipa.common.organisations;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The copy's revision rule and lookups, over the real MongoDB wire server. */
class OrganisationDirectoryIntegrationTests {

  private static MongoClient client;
  private static OrganisationDirectory directory;

  @BeforeAll
  static void connect() {
    client = MongoClients.create(SharedInfra.mongoUri());
    directory = new OrganisationDirectory(
        client.getDatabase("directory-tests").getCollection(OrganisationDirectory.COLLECTION));
  }

  @AfterAll
  static void close() {
    client.close();
  }

  static OrganisationProfile profile(String organisationId, long revision, String name, List<String> accounts) {
    Instant created = Instant.parse("2025-03-01T08:00:00Z");
    return new OrganisationProfile(organisationId, 42, name, "254700000001", "ops@duka.example", "LP0000000042",
        "sandbox", null, null, true, accounts, null, null, created, created.plusSeconds(revision), revision);
  }

  @Nested
  class Apply {

    @Test
    void storesTheFirstProfileOfAnOrganisation() {
      String org = UUID.randomUUID().toString();

      assertThat(directory.apply(profile(org, 1, "Duka", List.of()))).isTrue();

      assertThat(directory.byId(OrganisationId.of(org))).contains(profile(org, 1, "Duka", List.of()));
    }

    @Test
    void replacesAnOlderRevisionWithANewerOne() {
      String org = UUID.randomUUID().toString();
      directory.apply(profile(org, 1, "Old name", List.of()));

      assertThat(directory.apply(profile(org, 3, "New name", List.of()))).isTrue();

      assertThat(directory.byId(OrganisationId.of(org)).orElseThrow().name()).isEqualTo("New name");
    }

    @Test
    void ignoresAnOlderRevisionArrivingLate() {
      String org = UUID.randomUUID().toString();
      directory.apply(profile(org, 5, "Current", List.of()));

      assertThat(directory.apply(profile(org, 4, "Stale", List.of()))).isFalse();

      assertThat(directory.byId(OrganisationId.of(org)).orElseThrow().name()).isEqualTo("Current");
      assertThat(directory.byId(OrganisationId.of(org)).orElseThrow().revision()).isEqualTo(5);
    }

    @Test
    void ignoresTheSameRevisionDeliveredAgain() {
      String org = UUID.randomUUID().toString();
      directory.apply(profile(org, 2, "Same", List.of()));

      assertThat(directory.apply(profile(org, 2, "Same", List.of()))).isFalse();
    }

    @Test
    void endsOnTheNewestRevisionWhenRevisionsArriveConcurrentlyInAnyOrder() throws Exception {
      String org = UUID.randomUUID().toString();
      try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
        IntStream.rangeClosed(1, 20).map(i -> 21 - i)
            .forEach(r -> pool.submit(() -> directory.apply(profile(org, r, "rev " + r, List.of()))));
      }

      assertThat(directory.byId(OrganisationId.of(org)).orElseThrow().revision()).isEqualTo(20);
      assertThat(directory.byId(OrganisationId.of(org)).orElseThrow().name()).isEqualTo("rev 20");
    }
  }

  @Nested
  class Lookups {

    @Test
    void findsTheOrganisationOfABankAccount() {
      String org = UUID.randomUUID().toString();
      String account = String.valueOf(System.nanoTime());
      directory.apply(profile(org, 1, "Banked", List.of("1234567", account)));

      assertThat(directory.byBankAccount(account).map(OrganisationProfile::organisationId)).contains(org);
      assertThat(directory.byBankAccount(account + "9")).isEmpty();
    }

    @Test
    void forgetsAnAccountTheNewestRevisionNoLongerLists() {
      String org = UUID.randomUUID().toString();
      String account = String.valueOf(System.nanoTime());
      directory.apply(profile(org, 1, "Banked", List.of(account)));
      directory.apply(profile(org, 2, "Banked", List.of()));

      assertThat(directory.byBankAccount(account)).isEmpty();
    }

    @Test
    void listsTheSubAccountsOfAParent() {
      String parent = UUID.randomUUID().toString();
      String child = UUID.randomUUID().toString();
      Instant created = Instant.parse("2025-03-01T08:00:00Z");
      directory.apply(profile(parent, 1, "Parent", List.of()));
      directory.apply(new OrganisationProfile(child, 43, "Branch", null, null, "LP0000000043", "sandbox", null,
          parent, false, List.of(), null, null, created, created, 1));

      assertThat(directory.children(OrganisationId.of(parent))).extracting(OrganisationProfile::organisationId).containsExactly(child);
      assertThat(directory.children(OrganisationId.of(child))).isEmpty();
    }

    @Test
    void answersEmptyForAnOrganisationItHasNotHeardOf() {
      assertThat(directory.byId(OrganisationId.of(UUID.randomUUID().toString()))).isEmpty();
    }
  }
}

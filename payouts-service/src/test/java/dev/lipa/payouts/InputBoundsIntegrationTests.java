package dev.lipa.payouts;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.lipa.common.testsupport.HostileAmounts.assertRefusedNaming;
import static org.junit.jupiter.api.Named.named;

import com.mongodb.client.model.Filters;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.HostileAmounts;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.payouts.payout.PayoutStore;
import java.math.BigDecimal;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every money field of this service is bounded before any work (issue 12): send money, till, paybill, top-up,
 * allocation and de-allocation answer the probe's amounts with a 400 naming {@code amount} and move nothing; list
 * parameters that would overflow are 400s naming them; a collection event carrying such an amount is skipped without
 * holding up the next one. No test here times anything.
 */
class InputBoundsIntegrationTests extends PayoutsIntegrationTest {

  private static final String DEALLOCATIONS = "/api/sandbox/v1/de-allocations";

  /** The probe's amounts, and one above this service's ceiling. */
  static Stream<Arguments> hostileAmounts() {
    return Stream.concat(HostileAmounts.all(), Stream.of(Arguments.of(named("one above the ceiling",
        "1000000000000000"))));
  }

  private long payoutsOf(String org) {
    return database.getCollection(PayoutStore.COLLECTION).countDocuments(Filters.eq("organisationId", org));
  }

  @Nested
  class Payouts {

    @SuppressWarnings("unchecked")
    static Stream<Arguments> bodies() {
      return hostileAmounts().map(a -> (Named<String>) a.get()[0]).flatMap(a -> Stream.of(
          Arguments.of(named("send money, " + a.getName(), SEND_MONEY), """
              {"phoneNumber":"0712345678","amount":%s,"remarks":"salary","occasion":"June",
               "callbackUrl":"https://merchant.example/b2c"}""".formatted(a.getPayload())),
          Arguments.of(named("till, " + a.getName(), TILL), """
              {"businessNumber":"174379","accountNumber":"INV-7","amount":%s,"remarks":"stock",
               "callbackUrl":"https://merchant.example/till"}""".formatted(a.getPayload())),
          Arguments.of(named("paybill, " + a.getName(), PAYBILL), """
              {"businessNumber":"888880","accountNumber":"ACC-77","amount":%s,"remarks":"bill","occasion":"June",
               "callbackUrl":"https://merchant.example/paybill"}""".formatted(a.getPayload()))));
    }

    @ParameterizedTest(name = "refuses {0} naming amount")
    @MethodSource("bodies")
    void refusesAHostileAmountWith400NamingItAndReservesNothing(String path, String body) {
      String org = newOrganisation();
      BigDecimal[] before = balance(org, "KSH");

      assertRefusedNaming(http().postJson(path, body, as(org)), "amount");
      assertThat(payoutsOf(org)).isZero();
      assertThat(balance(org, "KSH")).containsExactly(before);
    }
  }

  @Nested
  class TopUp {

    @ParameterizedTest(name = "refuses {0} naming amount")
    @MethodSource("dev.lipa.payouts.InputBoundsIntegrationTests#hostileAmounts")
    void refusesAHostileAmountAndLeavesTheBalance(String amount) {
      String org = newOrganisation();
      BigDecimal[] before = balance(org, "KSH");

      assertRefusedNaming(http().postJson(BALANCE + "/top-up", "{\"currency\":\"KSH\",\"amount\":" + amount + "}",
          as(org)), "amount");
      assertThat(balance(org, "KSH")).containsExactly(before);
    }
  }

  @Nested
  class Transfers {

    @ParameterizedTest(name = "refuses {0} naming amount")
    @MethodSource("dev.lipa.payouts.InputBoundsIntegrationTests#hostileAmounts")
    void refusesAHostileAllocationOrDeallocationAndMovesNothing(String amount) {
      String parent = newOrganisation();
      String child = newOrganisation();
      subAccount(child, parent);
      String body = "{\"subAccountId\":\"" + child + "\",\"amount\":" + amount + ",\"currency\":\"KSH\"}";
      BigDecimal[] parentBefore = balance(parent, "KSH");

      assertRefusedNaming(http().postJson(DEALLOCATIONS + "/allocate", body, as(parent)), "amount");
      assertRefusedNaming(http().postJson(DEALLOCATIONS, body, as(child)), "amount");
      assertThat(balance(parent, "KSH")).containsExactly(parentBefore);
    }
  }

  @Nested
  class ListParameters {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("a page beyond a long", "&page=99999999999999999999"), "page"),
          Arguments.of(named("a negative page", "&page=-1"), "page"),
          Arguments.of(named("a size in scientific notation", "&size=1e9"), "size"),
          Arguments.of(named("a size of a billion", "&size=1000000000"), "size"),
          Arguments.of(named("a page times size beyond a skip", "&page=2147483647&size=500"), "page"));
    }

    @ParameterizedTest(name = "refuses {0} naming it")
    @MethodSource("refused")
    void refusesAValueThatWouldOverflowWith400NamingTheParameter(String query, String parameter) {
      String org = newOrganisation();
      for (String list : new String[] {SEND_MONEY, TILL, PAYBILL}) {
        assertRefusedNaming(http().get(list + "/all?companyId=" + org + query, as(org)), parameter);
      }
    }
  }

  @Nested
  class CollectionEvents {

    @Test
    void skipsACollectionEventWithAHostileAmountAndCreditsTheNextOne() throws Exception {
      String org = newOrganisation();
      BigDecimal opening = balance(org, "KSH")[0];
      String hostile = """
          {"eventId":"%s","type":"stk.succeeded","version":1,"occurredAt":"2026-03-01T09:00:00Z",
           "organisationId":"%s","data":{"requestId":"%s","amount":1e100000000,"currency":"KSH"}}"""
          .formatted(UUID.randomUUID(), org, UUID.randomUUID());
      String hostileString = hostile.replace("1e100000000", "\"1e-100000000\"").replace("\"requestId\":\"",
          "\"requestId\":\"1");
      String good = """
          {"eventId":"%s","type":"stk.succeeded","version":1,"occurredAt":"2026-03-01T09:00:01Z",
           "organisationId":"%s","data":{"requestId":"%s","amount":250,"currency":"KSH"}}"""
          .formatted(UUID.randomUUID(), org, UUID.randomUUID());

      try (KafkaProducer<String, String> producer = producer()) {
        // one key: one partition, in this order
        for (String event : new String[] {hostile, hostileString, good}) {
          producer.send(new ProducerRecord<>(Topics.COLLECTIONS, org, event)).get();
        }
      }

      await(() -> balance(org, "KSH")[0].compareTo(opening.add(new BigDecimal("250"))) == 0);
      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo(opening.add(new BigDecimal("250")));
    }

    private static KafkaProducer<String, String> producer() {
      Properties props = new Properties();
      props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
      props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      return new KafkaProducer<>(props);
    }
  }
}

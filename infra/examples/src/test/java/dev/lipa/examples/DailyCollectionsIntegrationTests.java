package dev.lipa.examples;

import static dev.lipa.examples.CollectionEvents.bankReceived;
import static dev.lipa.examples.CollectionEvents.id;
import static dev.lipa.examples.CollectionEvents.stk;
import static dev.lipa.examples.CollectionEvents.stkSucceeded;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.EventContracts;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestKafka;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The worked example against a real broker: events of the collections topic's contract, spread over the partitions
 * of a topic of its own, one of them published twice as the outbox's sweeper would, read back to the end.
 */
class DailyCollectionsIntegrationTests {

  private final String topic = "examples.collections." + UUID.randomUUID();

  private void publish(String event) {
    // what the example reads is what the platform writes: every event here is a valid event of the collections topic
    EventContracts.assertConforms(Topics.COLLECTIONS, event);
    TestKafka.send(topic, UUID.randomUUID().toString(), event);
  }

  @Test
  void sumsTheDaysSuccessfulCollectionsPerCurrencyOnceEachInDecimalsOnTheNairobiDay() {
    String republished = stkSucceeded(id(), "2026-03-01T20:59:59.999Z", "150", "KSH");
    publish(stkSucceeded(id(), "2026-02-28T20:59:59Z", "1000", "KSH")); // 23:59:59 on 28 February in Nairobi
    publish(stkSucceeded(id(), "2026-02-28T21:00:00Z", "100", "KSH")); // 00:00 on 1 March in Nairobi
    publish(republished);
    publish(bankReceived(id(), "2026-03-01T08:00:00Z", "0.10"));
    publish(bankReceived(id(), "2026-03-01T08:00:01Z", "0.20"));
    publish(stkSucceeded(id(), "2026-03-01T10:00:00Z", "5000", "TZS"));
    publish(stk("stk.failed", id(), "2026-03-01T10:00:00Z", "700", "UGX"));
    publish(stk("stk.accepted", id(), "2026-03-01T10:00:00Z", "700", "UGX"));
    publish(stkSucceeded(id(), "2026-03-01T21:00:00Z", "999", "KSH")); // 2 March in Nairobi
    TestKafka.send(topic, UUID.randomUUID().toString(), republished); // the sweeper's republication: same eventId

    DailyCollections.Totals totals = DailyCollections.totals(SharedInfra.kafkaBootstrapServers(), topic,
        LocalDate.parse("2026-03-01"));

    assertThat(totals.byCurrency()).containsExactly(Map.entry("KSH", new BigDecimal("250.30")),
        Map.entry("TZS", new BigDecimal("5000")));
    assertThat(totals.report()).isEqualTo("2026-03-01 (Africa/Nairobi)\nKSH 250.30\nTZS 5000\n");
  }
}

package dev.lipa.examples;

import static dev.lipa.examples.CollectionEvents.bankReceived;
import static dev.lipa.examples.CollectionEvents.id;
import static dev.lipa.examples.CollectionEvents.stk;
import static dev.lipa.examples.CollectionEvents.stkSucceeded;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The example's arithmetic: which events count, once each, in decimals, on which Nairobi day. */
class DailyCollectionsTests {

  private static final LocalDate MARCH_1 = LocalDate.parse("2026-03-01");

  @Test
  void aRepublishedEventCountsOnce() {
    DailyCollections.Totals totals = new DailyCollections.Totals(MARCH_1);
    String event = stkSucceeded(id(), "2026-03-01T09:00:00Z", "150", "KSH");

    totals.addRecord(event);
    totals.addRecord(event);

    assertThat(totals.byCurrency()).containsExactly(Map.entry("KSH", new BigDecimal("150")));
  }

  @Test
  void amountsAddUpInDecimalsNotInDoubles() {
    DailyCollections.Totals totals = new DailyCollections.Totals(MARCH_1);

    totals.addRecord(bankReceived(id(), "2026-03-01T08:00:00Z", "0.10"));
    totals.addRecord(bankReceived(id(), "2026-03-01T08:00:01Z", "0.20"));

    // as doubles, 0.1 + 0.2 is 0.30000000000000004
    assertThat(totals.byCurrency().get("KSH").toPlainString()).isEqualTo("0.30");
    assertThat(0.1 + 0.2).isNotEqualTo(0.3);
  }

  @Test
  void theDayTurnsAt21UtcWhichIsMidnightInNairobi() {
    assertThat(DailyCollections.collectionOf(stkSucceeded(id(), "2026-03-01T20:59:59.999Z", "1", "KSH")))
        .hasValueSatisfying(c -> assertThat(c.day()).isEqualTo(MARCH_1));
    assertThat(DailyCollections.collectionOf(stkSucceeded(id(), "2026-03-01T21:00:00Z", "1", "KSH")))
        .hasValueSatisfying(c -> assertThat(c.day()).isEqualTo(MARCH_1.plusDays(1)));
    // and a collection at 00:30 in Nairobi on 1 March happened on 28 February in UTC
    assertThat(DailyCollections.collectionOf(stkSucceeded(id(), "2026-02-28T21:30:00Z", "1", "KSH")))
        .hasValueSatisfying(c -> assertThat(c.day()).isEqualTo(MARCH_1));
  }

  @Test
  void onlySuccessfulCollectionsCountEachInItsCurrency() {
    DailyCollections.Totals totals = new DailyCollections.Totals(MARCH_1);

    totals.addRecord(stk("stk.accepted", id(), "2026-03-01T09:00:00Z", "500", "KSH"));
    totals.addRecord(stk("stk.failed", id(), "2026-03-01T09:00:03Z", "500", "KSH"));
    totals.addRecord(stkSucceeded(id(), "2026-03-01T09:00:03Z", "5000", "TZS"));
    totals.addRecord(stkSucceeded(id(), "2026-03-01T09:00:04Z", "150", "KSH"));
    totals.addRecord(bankReceived(id(), "2026-03-01T10:00:00Z", "1500.25"));
    totals.addRecord("{\"type\":\"checkout.succeeded\",\"version\":1}");
    totals.addRecord(null);

    assertThat(totals.byCurrency()).containsExactly(Map.entry("KSH", new BigDecimal("1650.25")),
        Map.entry("TZS", new BigDecimal("5000")));
    assertThat(totals.unreadable()).isZero();
    assertThat(totals.report()).isEqualTo("2026-03-01 (Africa/Nairobi)\nKSH 1650.25\nTZS 5000\n");
  }

  @Test
  void aVersionItDoesNotKnowIsNotCountedButReported() {
    DailyCollections.Totals totals = new DailyCollections.Totals(MARCH_1);

    totals.addRecord(stkSucceeded(id(), "2026-03-01T09:00:00Z", "150", "KSH").replace("\"version\":1",
        "\"version\":2"));
    totals.addRecord("{not json");

    assertThat(totals.byCurrency()).isEmpty();
    assertThat(totals.unreadable()).isEqualTo(2);
    assertThat(totals.report()).endsWith("no successful collections\n");
  }
}

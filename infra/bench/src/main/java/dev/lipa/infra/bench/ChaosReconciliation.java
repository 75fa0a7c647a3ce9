package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bson.Document;
import org.bson.types.Decimal128;

/**
 * What {@code ./platform chaos} checks in the store once the load has ended: every acknowledged payment (a 201) is
 * there (else it was lost) and reached a final state; every successful STK push credited the ledger once and every
 * payout has its reservation settled or released; and every ledger account's balances equal the sum of its movements.
 * Read straight from the services' databases, as an auditor would, not through the services.
 */
final class ChaosReconciliation {

  private static final int BATCH = 1000;

  /** The store's view of the acknowledged payments of one kind. */
  record Payments(long acknowledged, long lost, long notFinal, long succeeded, long failed, long ledgerMissing) {
  }

  /** The ledger accounts checked, and those whose balances differ from the sum of their movements. */
  record Ledger(long accounts, long entries, List<String> differences) {
  }

  private final MongoClient mongo;

  ChaosReconciliation(MongoClient mongo) {
    this.mongo = mongo;
  }

  /**
   * The STK pushes of {@code requestIds}: in lipa-collections.stk_pushes, final, and credited when SUCCESS (a credit's
   * entry id is {@code <event type>:<requestId>:credit}, once per push by construction).
   */
  Payments stk(Set<String> requestIds, Set<String> journalIds) {
    Set<String> credited = new HashSet<>();
    for (String id : journalIds) {
      if (id.endsWith(":credit")) {
        String source = id.substring(0, id.length() - ":credit".length());
        credited.add(source.substring(source.lastIndexOf(':') + 1));
      }
    }
    return payments(mongo.getDatabase("lipa-collections").getCollection("stk_pushes"), requestIds,
        (id, status) -> !status.equals("SUCCESS") || credited.contains(id));
  }

  /** The payouts of {@code requestIds}: in lipa-payouts.payouts, final, reserved, then settled or released. */
  Payments payouts(Set<String> requestIds, Set<String> journalIds) {
    return payments(mongo.getDatabase("lipa-payouts").getCollection("payouts"), requestIds,
        (id, status) -> journalIds.contains(id + ":reserve") && switch (status) {
          case "SUCCESS" -> journalIds.contains(id + ":settle");
          case "FAILED" -> journalIds.contains(id + ":release");
          default -> true; // a pending payout is counted as not final
        });
  }

  /** Whether the ledger shows what a payment of this status must have caused. */
  private interface LedgerRule {
    boolean holds(String requestId, String status);
  }

  private static Payments payments(MongoCollection<Document> collection, Set<String> requestIds, LedgerRule rule) {
    Map<String, String> status = new HashMap<>();
    List<String> ids = new ArrayList<>(requestIds);
    for (int i = 0; i < ids.size(); i += BATCH) {
      for (Document d : collection.find(Filters.in("_id", ids.subList(i, Math.min(ids.size(), i + BATCH))))
          .projection(Projections.include("status"))) {
        status.put(d.getString("_id"), d.getString("status"));
      }
    }
    long notFinal = status.values().stream().filter("PENDING"::equals).count();
    long succeeded = status.values().stream().filter("SUCCESS"::equals).count();
    long failed = status.values().stream().filter("FAILED"::equals).count();
    long ledgerMissing = status.entrySet().stream().filter(e -> !e.getValue().equals("PENDING"))
        .filter(e -> !rule.holds(e.getKey(), e.getValue())).count();
    return new Payments(requestIds.size(), requestIds.size() - status.size(), notFinal, succeeded, failed,
        ledgerMissing);
  }

  /** The ids of every journal entry (and of every entry still pending on its account). */
  Set<String> journalIds() {
    Set<String> ids = new HashSet<>();
    MongoCollection<Document> accounts = mongo.getDatabase("lipa-payouts").getCollection("ledger_accounts");
    for (Document account : accounts.find().projection(Projections.include("pending._id"))) {
      account.getList("pending", Document.class, List.of()).forEach(e -> ids.add(e.getString("_id")));
    }
    for (Document entry : mongo.getDatabase("lipa-payouts").getCollection("ledger_entries").find()
        .projection(Projections.include("_id"))) {
      ids.add(entry.getString("_id"));
    }
    return ids;
  }

  /**
   * Every account's available and reserved amounts against the sum of its movements (journal and pending entries,
   * each once). The accounts are read before the journal, so an entry copied meanwhile is found in one or both.
   */
  Ledger ledger() {
    List<Document> accounts = mongo.getDatabase("lipa-payouts").getCollection("ledger_accounts").find().into(
        new ArrayList<>());
    Map<String, Document> entries = new HashMap<>();
    for (Document account : accounts) {
      account.getList("pending", Document.class, List.of()).forEach(e -> entries.put(e.getString("_id"), e));
    }
    for (Document entry : mongo.getDatabase("lipa-payouts").getCollection("ledger_entries").find()) {
      entries.putIfAbsent(entry.getString("_id"), entry);
    }
    Map<String, BigDecimal[]> sums = new HashMap<>();
    for (Document e : entries.values()) {
      BigDecimal[] sum = sums.computeIfAbsent(e.getString("organisationId") + ":" + e.getString("currency"),
          k -> new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO});
      sum[0] = sum[0].add(decimal(e.get("availableChange")));
      sum[1] = sum[1].add(decimal(e.get("reservedChange")));
    }
    List<String> differences = new ArrayList<>();
    for (Document account : accounts) {
      String id = account.getString("organisationId") + ":" + account.getString("currency");
      BigDecimal[] sum = sums.getOrDefault(id, new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO});
      BigDecimal available = decimal(account.get("available"));
      BigDecimal reserved = decimal(account.get("reserved"));
      if (available.compareTo(sum[0]) != 0 || reserved.compareTo(sum[1]) != 0) {
        differences.add("%s: available %s, reserved %s; movements sum to %s and %s".formatted(id,
            available.toPlainString(), reserved.toPlainString(), sum[0].toPlainString(), sum[1].toPlainString()));
      }
    }
    return new Ledger(accounts.size(), entries.size(), differences);
  }

  private static BigDecimal decimal(Object value) {
    return switch (value) {
      case Decimal128 d -> d.bigDecimalValue();
      case Number n -> new BigDecimal(n.toString());
      case null -> BigDecimal.ZERO;
      default -> new BigDecimal(value.toString());
    };
  }

  static void print(String kind, Payments p) {
    say("  %-13s acknowledged %d   lost %d   without a final state %d   succeeded %d   failed %d   ledger movement"
        + " missing %d", kind, p.acknowledged(), p.lost(), p.notFinal(), p.succeeded(), p.failed(), p.ledgerMissing());
  }
}

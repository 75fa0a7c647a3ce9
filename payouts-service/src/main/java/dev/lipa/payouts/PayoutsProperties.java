package dev.lipa.payouts;

import dev.lipa.common.idempotency.IdempotencySettings;
import dev.lipa.common.outbox.OutboxSettings;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of payouts-service ({@code lipa.payouts.*}), checked at start-up.
 *
 * @param zone the zone of the local date-times shown in records
 * @param outbox how the outbox sweeper republishes what a crash left behind (common's {@link OutboxSettings})
 * @param sandbox the sandbox payout rail simulator
 * @param overdue when a PENDING payout counts as overdue and its outcome is asked for again
 * @param ledger the ledger's opening float and its repair jobs
 * @param idempotency how long Idempotency-Key responses are kept and how keys are looked after (common's
 *     {@link IdempotencySettings})
 */
@ConfigurationProperties("lipa.payouts")
public record PayoutsProperties(
    @DefaultValue("Africa/Nairobi") ZoneId zone,
    @DefaultValue OutboxSettings outbox,
    @DefaultValue Sandbox sandbox,
    @DefaultValue Overdue overdue,
    @DefaultValue Ledger ledger,
    @DefaultValue IdempotencySettings idempotency) implements OutboxSettings.Source, IdempotencySettings.Source {

  /**
   * @param enabled whether this service runs the sandbox payout rail (the only rail so far)
   * @param outcomeDelay how long the simulated provider takes to answer
   */
  public record Sandbox(@DefaultValue("true") boolean enabled, @DefaultValue("3s") Duration outcomeDelay) {

    public Sandbox {
      if (outcomeDelay == null || outcomeDelay.isNegative()) {
        throw new IllegalArgumentException("lipa.payouts.sandbox.outcome-delay must not be negative");
      }
    }
  }

  /**
   * @param after age of a PENDING payout after which its outcome is asked for again; must exceed the rail's normal
   *     answer time
   * @param sweepInterval how often overdue payouts are looked for
   * @param sweepBatch payouts per sweep
   */
  public record Overdue(
      @DefaultValue("60s") Duration after,
      @DefaultValue("10s") Duration sweepInterval,
      @DefaultValue("100") int sweepBatch) {

    public Overdue {
      positive("lipa.payouts.overdue.after", after);
      positive("lipa.payouts.overdue.sweep-interval", sweepInterval);
      atLeastOne("lipa.payouts.overdue.sweep-batch", sweepBatch);
    }
  }

  /**
   * @param openingFloat what a sandbox organisation's account holds when it is first used, per currency code
   *     (KSH, TZS, UGX, USD); a currency not named starts at 0
   * @param repairInterval how often entries a crash left in an account document are copied out and reservations a
   *     crash orphaned are released
   * @param orphanAfter age of a reservation without a payout after which it is released
   */
  public record Ledger(
      Map<String, BigDecimal> openingFloat,
      @DefaultValue("10s") Duration repairInterval,
      @DefaultValue("2m") Duration orphanAfter) {

    /** The sandbox test float when none is configured. */
    public static final Map<String, BigDecimal> DEFAULT_OPENING_FLOAT = Map.of("KSH", new BigDecimal("1000000"),
        "TZS", new BigDecimal("10000000"), "UGX", new BigDecimal("10000000"));

    public Ledger {
      openingFloat = openingFloat == null ? DEFAULT_OPENING_FLOAT : Map.copyOf(openingFloat);
      openingFloat.forEach((currency, amount) -> {
        if (amount.signum() < 0) {
          throw new IllegalArgumentException("lipa.payouts.ledger.opening-float." + currency + " must not be negative");
        }
      });
      positive("lipa.payouts.ledger.repair-interval", repairInterval);
      positive("lipa.payouts.ledger.orphan-after", orphanAfter);
    }
  }

  private static void positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration");
    }
  }

  private static void atLeastOne(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1");
    }
  }
}

package dev.lipa.payouts;

import dev.lipa.common.idempotency.IdempotencySettings;
import dev.lipa.common.outbox.OutboxSettings;
import dev.lipa.common.rail.OverdueSettings;
import dev.lipa.common.rail.SandboxRailSettings;
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
    @DefaultValue SandboxRailSettings sandbox,
    @DefaultValue OverdueSettings overdue,
    @DefaultValue Ledger ledger,
    @DefaultValue IdempotencySettings idempotency) implements OutboxSettings.Source, IdempotencySettings.Source {

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
}

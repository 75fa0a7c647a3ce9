package dev.lipa.payouts.payout.rail.daraja;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a live payouts-service reaches Daraja ({@code lipa.payouts.daraja.*}); the shortcodes themselves are configured
 * through the operator API ({@code /admin/v1/daraja/payout-shortcodes}).
 *
 * @param baseUrl Daraja's base address: {@code https://api.safaricom.co.ke} (production)
 * @param callbackBaseUrl the platform's public address Daraja posts results to; a shortcode's ResultURL is
 *     {@code <callbackBaseUrl>/daraja/v1/results/<shortcode's random segment>}, its QueueTimeOutURL
 *     {@code .../daraja/v1/timeouts/<segment>}
 * @param connectTimeout past it nothing was sent
 * @param requestTimeout past it the payout is UNKNOWN (never sent again; settled by Transaction Status)
 * @param remarks the {@code Remarks} sent with every payout (2 to 100 characters)
 * @param callbackSources the addresses (exact IPs or CIDR blocks) Daraja's results may come from; empty: none is
 *     accepted
 * @param reconciliation the daily funds reconciliation against Daraja's Account Balance
 */
@ConfigurationProperties("lipa.payouts.daraja")
public record DarajaPayoutsProperties(
    @DefaultValue("https://api.safaricom.co.ke") URI baseUrl,
    URI callbackBaseUrl,
    @DefaultValue("5s") Duration connectTimeout,
    @DefaultValue("30s") Duration requestTimeout,
    @DefaultValue("Payout") String remarks,
    @DefaultValue List<String> callbackSources,
    @DefaultValue Reconciliation reconciliation) {

  /**
   * The funds reconciliation ({@code lipa.payouts.daraja.reconciliation.*}), checked at start-up.
   *
   * @param at the local time in Nairobi (M-Pesa's day) from which the day's reconciliation runs, {@code HH:mm}; a
   *     quiet hour, so that few payments move while the shortcodes answer. A service started later that day runs it
   *     at once
   * @param answerWithin how long the shortcodes have to answer; a shortcode that has not answered by then leaves the
   *     report INCOMPLETE
   * @param checkInterval how often a replica checks whether the day's reconciliation is due and closes reports past
   *     their deadline (the lease lasts three intervals)
   * @param excludedAccounts the M-Pesa accounts of a shortcode that hold no merchant money, named as Account
   *     Balance names them: shown in the report, left out of the comparison (docs/going-live.md, "The funds model")
   * @param platformFunds the platform's own KSH the operator keeps on the compared accounts (a float that lets
   *     payouts go out before collections are moved over, say): the shortcodes are expected to hold it besides what
   *     the ledger owes. Change it when the operator moves its own money in or out
   */
  public record Reconciliation(
      @DefaultValue("03:00") String at,
      @DefaultValue("15m") Duration answerWithin,
      @DefaultValue("1m") Duration checkInterval,
      @DefaultValue("Charges Paid Account") List<String> excludedAccounts,
      @DefaultValue("0") BigDecimal platformFunds) {

    public Reconciliation {
      time(at);
      positive("answer-within", answerWithin);
      positive("check-interval", checkInterval);
      excludedAccounts = List.copyOf(excludedAccounts);
      if (excludedAccounts.stream().anyMatch(String::isBlank)) {
        throw new IllegalArgumentException(
            "lipa.payouts.daraja.reconciliation.excluded-accounts names a blank account");
      }
      if (platformFunds == null || platformFunds.signum() < 0) {
        throw new IllegalArgumentException("lipa.payouts.daraja.reconciliation.platform-funds must be 0 or more");
      }
    }

    /** {@link #at()} as a time of day. */
    public LocalTime time() {
      return time(at);
    }

    private static LocalTime time(String at) {
      try {
        return LocalTime.parse(at);
      } catch (DateTimeParseException | NullPointerException e) {
        throw new IllegalArgumentException("lipa.payouts.daraja.reconciliation.at must be a time of day (HH:mm), not "
            + at);
      }
    }

    private static void positive(String name, Duration value) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(
            "lipa.payouts.daraja.reconciliation." + name + " must be a positive duration");
      }
    }
  }
}

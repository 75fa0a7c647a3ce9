package dev.lipa.collections;

import dev.lipa.common.idempotency.IdempotencySettings;
import dev.lipa.common.outbox.OutboxSettings;
import dev.lipa.common.rail.OverdueSettings;
import dev.lipa.common.rail.SandboxRailSettings;
import dev.lipa.common.ratelimit.Limit;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of collections-service ({@code lipa.collections.*}), checked at start-up.
 *
 * @param zone the zone of the local date-times shown in records
 * @param outbox how the outbox sweeper republishes what a crash left behind (common's {@link OutboxSettings})
 * @param sandbox the sandbox rail simulator
 * @param overdue when a PENDING push counts as overdue and its outcome is asked for again
 * @param reconciliation how often one overdue push is asked about before it is left to operators
 * @param idempotency how long Idempotency-Key responses are kept and how keys are looked after (common's
 *     {@link IdempotencySettings})
 * @param bank the partner banks that may notify deposits, and how their signatures are checked
 * @param promptLimits how often one phone number may be sent an STK prompt
 */
@ConfigurationProperties("lipa.collections")
public record CollectionsProperties(
    @DefaultValue("Africa/Nairobi") ZoneId zone,
    @DefaultValue OutboxSettings outbox,
    @DefaultValue SandboxRailSettings sandbox,
    @DefaultValue OverdueSettings overdue,
    @DefaultValue Reconciliation reconciliation,
    @DefaultValue IdempotencySettings idempotency,
    @DefaultValue Bank bank,
    @DefaultValue PromptLimits promptLimits) implements OutboxSettings.Source, IdempotencySettings.Source {

  /**
   * @param partners the partner banks by bank code (the {@code {bankCode}} of the notification path, lowercase
   *     letters, digits and hyphens), each with the shared secret its notifications are signed with
   * @param signatureTolerance how far a signature's timestamp may be from our clock, either way
   */
  public record Bank(
      @DefaultValue Map<String, Partner> partners,
      @DefaultValue("5m") Duration signatureTolerance) {

    public Bank {
      partners = partners == null ? Map.of() : Map.copyOf(partners);
      positive("lipa.collections.bank.signature-tolerance", signatureTolerance);
      partners.forEach((code, partner) -> {
        if (!code.matches("[a-z0-9-]{2,32}")) {
          throw new IllegalArgumentException("lipa.collections.bank.partners: bank code '" + code
              + "' must be 2 to 32 lowercase letters, digits or hyphens");
        }
        if (partner == null || partner.secret() == null || partner.secret().isBlank()) {
          throw new IllegalArgumentException("lipa.collections.bank.partners." + code + ".secret must be set");
        }
      });
    }
  }

  /**
   * How the overdue sweep spaces its questions about one PENDING push, and when it stops asking. A rail that cannot
   * answer (a live push whose acknowledgement was lost has no CheckoutRequestID to query) or keeps saying "being
   * processed" is not asked forever: after the last question the push is unresolved, listed for operators and asked
   * about no more. It stays PENDING (nothing says whether the customer paid), so its own callback still settles it.
   *
   * @param maxQuestions questions about one push, the first one when it becomes overdue
   * @param firstPause the pause after the first question; each later pause is twice the one before, up to
   *     {@code maxPause}
   * @param maxPause the longest pause between two questions
   */
  public record Reconciliation(
      @DefaultValue("10") int maxQuestions,
      @DefaultValue("10s") Duration firstPause,
      @DefaultValue("10m") Duration maxPause) {

    public Reconciliation {
      if (maxQuestions < 1) {
        throw new IllegalArgumentException("lipa.collections.reconciliation.max-questions must be at least 1");
      }
      positive("lipa.collections.reconciliation.first-pause", firstPause);
      positive("lipa.collections.reconciliation.max-pause", maxPause);
    }

    /** The pause after the {@code questions}-th question about a push; empty when that one was the last. */
    public Optional<Duration> pauseAfter(int questions) {
      if (questions >= maxQuestions) {
        return Optional.empty();
      }
      // doubling, without overflowing however many questions are allowed
      Duration pause = firstPause;
      for (int i = 1; i < questions && pause.compareTo(maxPause) < 0; i++) {
        pause = pause.multipliedBy(2);
      }
      return Optional.of(pause.compareTo(maxPause) > 0 ? maxPause : pause);
    }
  }

  /**
   * @param limits prompts per phone number, all of which must have a token left: by default 3 a minute and 10 an
   *     hour, whatever organisation asks
   * @param replicas how many collections-service replicas share the work: each enforces its share of every limit
   *     on its own, without a store write per push
   * @param maxNumbers how many numbers' counts one replica keeps (about 400 bytes each; the least used are forgotten
   *     first)
   */
  public record PromptLimits(
      List<Limit> limits,
      @DefaultValue("1") int replicas,
      @DefaultValue("50000") int maxNumbers) {

    public PromptLimits {
      limits = limits == null || limits.isEmpty()
          ? List.of(Limit.perPeriod(3, Duration.ofMinutes(1)), Limit.perPeriod(10, Duration.ofHours(1)))
          : List.copyOf(limits);
      if (replicas < 1 || maxNumbers < 1) {
        throw new IllegalArgumentException(
            "lipa.collections.prompt-limits.replicas and max-numbers must be at least 1");
      }
    }
  }

  /** @param secret the HMAC-SHA256 key shared with the bank; a long random value */
  public record Partner(String secret) {

    @Override
    public String toString() {
      return "Partner[secret=***]";
    }
  }

  private static void positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration");
    }
  }
}

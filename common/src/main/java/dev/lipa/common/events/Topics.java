package dev.lipa.common.events;

/**
 * The platform's Kafka topics by their sandbox names; the AsyncAPI document in docs/ describes their records. A live
 * stack uses the same topics with the {@code live.} prefix (except the organisations topic, which both share): code
 * that produces asks {@link dev.lipa.common.environment.StackEnvironment#topic}, annotations use
 * {@link OfEnvironment}.
 */
public final class Topics {

  public static final String COLLECTIONS = "payments.collections.v1";
  public static final String PAYOUTS = "payments.payouts.v1";
  public static final String CHECKOUT = "payments.checkout.v1";
  public static final String ORGANISATIONS = "payments.organisations.v1";
  public static final String CALLBACKS = "payments.callbacks.v1";

  private Topics() {
  }

  /**
   * The topics and consumer groups of the service's environment as placeholders, for {@code @KafkaListener}
   * ({@code topics = OfEnvironment.COLLECTIONS, groupId = "payouts-ledger" + OfEnvironment.GROUP_SUFFIX}); common's
   * {@code EnvironmentDefaults} defines them.
   */
  public static final class OfEnvironment {

    public static final String COLLECTIONS = "${lipa.topics.collections}";
    public static final String PAYOUTS = "${lipa.topics.payouts}";
    public static final String CHECKOUT = "${lipa.topics.checkout}";
    public static final String CALLBACKS = "${lipa.topics.callbacks}";
    /** What a consumer group id ends with: nothing in the sandbox, {@code -live} in live. */
    public static final String GROUP_SUFFIX = "${lipa.stack.suffix}";

    private OfEnvironment() {
    }
  }
}

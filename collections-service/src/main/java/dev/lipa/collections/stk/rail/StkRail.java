package dev.lipa.collections.stk.rail;

import dev.lipa.common.web.FieldErrors;
import java.math.BigDecimal;

/**
 * The port to a rail that prompts customers to pay (the sandbox simulator now; Safaricom Daraja and the TZ/UG rails
 * later). Outcomes come back asynchronously through {@link StkOutcomeHandler}.
 */
public interface StkRail {

  /**
   * Refuses, before anything is stored, a push this rail could not send as asked (cents where the rail moves whole
   * amounts only, a currency it does not serve), naming the field in {@code errors}; may throw a
   * {@link dev.lipa.common.web.ApiException} when it cannot take any push now. The default takes every push.
   */
  default void check(BigDecimal amount, String currency, FieldErrors errors) {
  }

  /**
   * Whether this rail answers every prompt within seconds and in this process (the sandbox): the service then keeps
   * each push it accepts in memory until its outcome, and applies the outcome without reading the push back. A rail
   * whose answer comes later, or through another replica (a live rail's callback), says no, the default.
   */
  default boolean answersInProcess() {
    return false;
  }

  /** Sends the payment prompt to the customer's phone. */
  void sendPrompt(StkPrompt prompt);

  /**
   * Asks again for the outcome of a prompt whose answer is overdue (the process that waited for it may have died);
   * reports it through the handler when the rail knows it. Must not prompt the customer a second time.
   */
  void queryOutcome(StkPrompt prompt);
}

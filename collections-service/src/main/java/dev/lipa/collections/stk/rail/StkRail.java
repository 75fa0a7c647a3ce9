package dev.lipa.collections.stk.rail;

/**
 * The port to a rail that prompts customers to pay (the sandbox simulator now; Safaricom Daraja and the TZ/UG rails
 * later). Outcomes come back asynchronously through {@link StkOutcomeHandler}.
 */
public interface StkRail {

  /** Sends the payment prompt to the customer's phone. */
  void sendPrompt(StkPrompt prompt);

  /**
   * Asks again for the outcome of a prompt whose answer is overdue (the process that waited for it may have died);
   * reports it through the handler when the rail knows it. Must not prompt the customer a second time.
   */
  void queryOutcome(StkPrompt prompt);
}

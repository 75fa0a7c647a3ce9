package dev.lipa.collections.stk.rail;

import java.math.BigDecimal;
import java.util.UUID;

/** What a rail needs to prompt a customer for an accepted STK push. */
public record StkPrompt(String organisationId, UUID requestId, String phoneNumber, BigDecimal amount,
    String currency) {
}

package dev.lipa.collections.stk.rail;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;

/** What a rail needs to prompt a customer for an accepted STK push. */
public record StkPrompt(OrganisationId organisationId, RequestId requestId, String phoneNumber, BigDecimal amount,
    String currency) {
}

package dev.lipa.payouts.payout.rail;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;

/**
 * What a rail needs to pay an accepted payout: to a phone number (send money; {@code receiverName} from the request's
 * names when given) or to a business number (till and paybill).
 */
public record PayoutOrder(OrganisationId organisationId, RequestId requestId, String kind, String phoneNumber,
    String businessNumber, String accountNumber, BigDecimal amount, String currency, String receiverName) {
}

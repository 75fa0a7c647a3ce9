package dev.lipa.payouts.payout.rail;

import java.math.BigDecimal;
import java.util.UUID;

/**
 * What a rail needs to pay an accepted payout: to a phone number (send money; {@code receiverName} from the request's
 * names when given) or to a business number (till and paybill).
 */
public record PayoutOrder(String organisationId, UUID requestId, String kind, String phoneNumber,
    String businessNumber, String accountNumber, BigDecimal amount, String currency, String receiverName) {
}

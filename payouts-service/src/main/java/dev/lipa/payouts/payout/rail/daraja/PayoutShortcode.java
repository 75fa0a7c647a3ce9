package dev.lipa.payouts.payout.rail.daraja;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * A B2C/B2B shortcode as the operator configured it, its secrets in their sealed form (only the rail opens them).
 *
 * @param shortcode PartyA of the payouts made with it
 * @param initiatorName the API operator on the M-Pesa organisation portal (not a secret)
 * @param products what the rail pays with it: {@code b2c} (send money), {@code b2b} (till and paybill); each product
 *     is served by at most one shortcode
 * @param reconciled whether the daily funds reconciliation asks its Account Balance (it holds merchants' money: a
 *     payout shortcode, or the STK paybill configured here for that alone); false for a retired one
 * @param fingerprints each secret's fingerprint by its field name, what the API may show
 * @param callbackSegment the random path segment of this shortcode's ResultURL and QueueTimeOutURL
 * @param version increases with every change, so that the rail knows when its client is stale
 */
record PayoutShortcode(String shortcode, String initiatorName, Set<String> products, boolean reconciled,
    String sealedConsumerKey, String sealedConsumerSecret, String sealedSecurityCredential,
    Map<String, String> fingerprints, String callbackSegment, long version, Instant updatedAt) {
}

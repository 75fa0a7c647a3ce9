package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.rails.daraja.StkTransactionType;
import java.time.Instant;
import java.util.Map;

/**
 * An STK shortcode as the operator configured it, its secrets in their sealed form (only the rail opens them, when it
 * builds its Daraja client).
 *
 * @param shortcode the BusinessShortCode pushes are made with
 * @param type paybill (PartyB is the shortcode) or buy goods (PartyB is {@code partyB}, the till)
 * @param partyB the till of a buy-goods shortcode; null for a paybill
 * @param active whether the rail uses it (at most one shortcode is active)
 * @param fingerprints each secret's fingerprint by its field name ({@code Fingerprints}), what the API may show
 * @param callbackSegment the random path segment of this shortcode's CallBackURLs, so that they cannot be guessed
 * @param version increases with every change, so that the rail knows when its client is stale
 */
record StkShortcode(String shortcode, StkTransactionType type, String partyB, boolean active,
    String sealedConsumerKey, String sealedConsumerSecret, String sealedPasskey, Map<String, String> fingerprints,
    String callbackSegment, long version, Instant updatedAt) {
}

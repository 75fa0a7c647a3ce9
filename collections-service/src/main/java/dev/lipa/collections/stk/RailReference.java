package dev.lipa.collections.stk;

/**
 * What the rail answered when it took the prompt (Daraja's synchronous STK response): its ids for the request and
 * whether it accepted it.
 */
public record RailReference(String merchantRequestId, String checkoutRequestId, int responseCode,
    String responseDescription, String customerMessage) {
}

package dev.lipa.rails.daraja;

/** Daraja's acknowledgement of an STK push: its ids, which the callback and STK Query name again. */
public record StkPushAnswer(String merchantRequestId, String checkoutRequestId, String responseCode,
    String responseDescription, String customerMessage) {
}

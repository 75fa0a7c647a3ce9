package dev.lipa.rails.daraja;

/**
 * Daraja's acknowledgement of an asynchronous request (B2C, B2B, Transaction Status, Account Balance, Reversal); its
 * result arrives later on the ResultURL, under the same ids.
 */
public record Acknowledgement(String originatorConversationId, String conversationId, String responseCode,
    String responseDescription) {
}

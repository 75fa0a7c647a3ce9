package dev.lipa.rails.daraja;

/**
 * Why a request surely was not acted upon.
 *
 * @param kind the class of refusal
 * @param httpStatus Daraja's HTTP status, or 0 when Daraja was not reached
 * @param errorCode Daraja's {@code errorCode} (for example {@code 400.002.02}) or non-zero {@code ResponseCode}, or null
 * @param message Daraja's {@code errorMessage}/{@code ResponseDescription}, or ours
 * @param requestId Daraja's {@code requestId} of the refused request, for Safaricom's support, or null
 */
public record Refusal(Kind kind, int httpStatus, String errorCode, String message, String requestId) {

  /** The classes of refusal. */
  public enum Kind {
    /** No connection was made (refused, unreachable, connect timeout): nothing was sent. */
    NOT_CONNECTED,
    /** The API family's circuit breaker is open: nothing was sent. */
    CIRCUIT_OPEN,
    /** No access token could be had (OAuth refused or unreachable): the request itself was not sent. */
    NO_TOKEN,
    /** Daraja refused the access token, also after one fresh token. */
    TOKEN_REFUSED,
    /** Daraja refused the request as invalid (4xx with its error body). */
    INVALID_REQUEST,
    /** Daraja answered but did not accept it (non-zero ResponseCode; for an STK push, its documented 500.001.1001). */
    REJECTED
  }
}

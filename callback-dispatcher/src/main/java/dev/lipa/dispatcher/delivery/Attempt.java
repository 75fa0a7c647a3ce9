package dev.lipa.dispatcher.delivery;

import java.time.Instant;

/**
 * One entry of a delivery's attempt log.
 *
 * @param number 1 for the first attempt
 * @param at when the attempt started
 */
public record Attempt(
    int number, Instant at, String url, Integer statusCode, long latencyMs, String error, String response) {
}

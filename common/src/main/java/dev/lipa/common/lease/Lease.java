package dev.lipa.common.lease;

import java.time.Instant;

/**
 * One holding of a named lease, as {@link Leases#acquire} granted it: who holds it, until when, and its fencing token
 * (a counter the store bumps on every acquisition, so a later holding always has a greater token than an earlier one).
 */
public record Lease(String name, String holder, long token, Instant until) {
}

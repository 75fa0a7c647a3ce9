package dev.lipa.common.lease;

/**
 * Thrown by {@link Leases#check} when a job's lease is no longer its own (it expired, or another replica took it over
 * with a greater token): the job must stop before its next act.
 */
public final class LeaseLostException extends RuntimeException {

  LeaseLostException(Lease lease) {
    super("lease " + lease.name() + " (token " + lease.token() + ") is no longer held by " + lease.holder());
  }
}

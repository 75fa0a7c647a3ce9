package dev.lipa.collections.stk;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.time.Duration;
import java.util.Optional;

/**
 * The pushes this process accepted for a rail that answers in process within seconds (the sandbox), kept until their
 * outcome: the outcome is then one guarded update, with no read of the push first. A push kept here is as good as one
 * read back: while it is PENDING only its outcome changes it, and the outcome's compare-and-set on PENDING refuses to
 * act on a push that changed meanwhile. It is a shortcut and nothing more: a push accepted by another replica or before
 * a restart, or one this bound pushed out, is read from the store as before. Each push is handed out once, so two
 * outcomes of one push (its timer and the overdue sweep) never work on the same object.
 */
final class AcceptedPushes {

  /** About ten seconds of pushes at the highest rate measured on one replica, a few MiB. */
  static final int MAX_PUSHES = 10_000;
  /** Longer than the sandbox's answer takes; what is older was answered elsewhere (the sweep) or never will be. */
  static final Duration KEPT = Duration.ofMinutes(2);

  private final Cache<RequestId, StkPush.Details> pushes = Caffeine.newBuilder()
      .maximumSize(MAX_PUSHES).expireAfterWrite(KEPT).executor(Runnable::run).build();

  /** Keeps a push just accepted (PENDING, stored as it is). */
  void keep(StkPush push) {
    pushes.put(push.requestId(), push.details());
  }

  /**
   * The organisation's push as it was accepted, with no events recorded, and forgotten here; empty when this process
   * does not hold it (or holds it for another organisation, which is then left alone).
   */
  Optional<StkPush> take(OrganisationId organisationId, RequestId requestId) {
    StkPush.Details[] taken = new StkPush.Details[1];
    pushes.asMap().computeIfPresent(requestId, (id, details) -> {
      if (!details.organisationId().equals(organisationId)) {
        return details;
      }
      taken[0] = details;
      return null;
    });
    return Optional.ofNullable(taken[0])
        .map(details -> StkPush.restore(details, StkStatus.PENDING, details.createdAt(), null, null));
  }
}

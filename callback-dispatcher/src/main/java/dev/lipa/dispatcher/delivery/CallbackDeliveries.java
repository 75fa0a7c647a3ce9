package dev.lipa.dispatcher.delivery;

import dev.lipa.common.ids.OrganisationId;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * What merchants and operators may see and do with callbacks: a merchant's delivery log and redelivery, the operators'
 * dead letters and replay. A redelivery or a replay also re-enables the callback's URL if a 410 Gone had disabled it:
 * asking for one is how a merchant says the endpoint is back.
 */
@Service
public class CallbackDeliveries {

  private static final Logger log = LoggerFactory.getLogger(CallbackDeliveries.class);

  private final DeliveryLogStore store;
  private final DisabledEndpoints disabledEndpoints;
  private final Clock clock;

  CallbackDeliveries(DeliveryLogStore store, DisabledEndpoints disabledEndpoints, Clock clock) {
    this.store = store;
    this.disabledEndpoints = disabledEndpoints;
    this.clock = clock;
  }

  /** The callbacks of one organisation for one requestId, oldest first, with their attempt logs. */
  public List<DeliveryView> forRequest(OrganisationId organisationId, String requestId) {
    return store.forRequest(organisationId, requestId);
  }

  /**
   * Schedules a fresh round of attempts now for a merchant's callback (any state).
   *
   * @return empty when the organisation has no callback with this id
   */
  public Optional<DeliveryView> redeliver(OrganisationId organisationId, String callbackId) {
    return store.reschedule(organisationId, callbackId, false, clock.instant()).map(this::reenable);
  }

  /** Dead letters, most recent first: across organisations, or of one when {@code organisationId} is given. */
  public List<DeliveryView> dead(OrganisationId organisationId, int limit) {
    return store.dead(organisationId, limit);
  }

  /** An operator's replay of a dead letter: as a redelivery, for any organisation, only when the callback is DEAD. */
  public Replay replay(String callbackId) {
    Optional<DeliveryView> replayed = store.reschedule(null, callbackId, true, clock.instant()).map(this::reenable);
    if (replayed.isPresent()) {
      return new Replay.Scheduled(replayed.get());
    }
    return store.exists(callbackId) ? new Replay.NotDead() : new Replay.NotFound();
  }

  /** What an operator's replay did. */
  public sealed interface Replay {

    /** The dead callback is on a fresh schedule, first attempt now. */
    record Scheduled(DeliveryView view) implements Replay {
    }

    /** The callback exists but is not DEAD: merchants may redeliver it, operators replay only dead letters. */
    record NotDead() implements Replay {
    }

    /** No callback of any organisation has this id. */
    record NotFound() implements Replay {
    }
  }

  private DeliveryView reenable(DeliveryView view) {
    if (disabledEndpoints.enable(view.organisationId(), view.url())) {
      log.info("callback endpoint {} of organisation {} re-enabled by the redelivery of {}",
          LoggedUrl.of(view.url()), view.organisationId(), view.callbackId());
    }
    return view;
  }
}

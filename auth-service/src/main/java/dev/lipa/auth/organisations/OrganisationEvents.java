package dev.lipa.auth.organisations;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.events.Topics;
import dev.lipa.common.organisations.OrganisationProfile;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Clock;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka contract auth-service owns: {@value OrganisationProfile#UPSERTED} on {@value Topics#ORGANISATIONS},
 * keyed by organisationId (so one organisation's revisions stay in order and compaction keeps its latest), with the
 * whole profile ({@link OrganisationProfile#toEventData()}) as {@code data}.
 */
@Component
class OrganisationEvents {

  private final JsonMapper json;
  private final Clock clock;

  OrganisationEvents(JsonMapper json, Clock clock) {
    this.json = json;
    this.clock = clock;
  }

  OutboxEvent upserted(Organisation organisation) {
    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), OrganisationProfile.UPSERTED, 1,
        clock.instant(), organisation.organisationId().value(), organisation.profile().toEventData());
    return OutboxEvent.of(Topics.ORGANISATIONS, organisation.organisationId().value(), envelope, json);
  }
}

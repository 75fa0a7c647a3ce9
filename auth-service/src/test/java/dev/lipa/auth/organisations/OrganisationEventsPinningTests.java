package dev.lipa.auth.organisations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.testsupport.PinnedEvents;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The producer {@link OrganisationEvents} pinned to committed JSON (src/test/resources/events) and checked against
 * docs/asyncapi.yaml: {@code organisation.upserted} of a top-level organisation and of a sub-account.
 */
class OrganisationEventsPinningTests {

  private static final Instant CREATED = Instant.parse("2025-03-01T08:00:00Z");
  private final OrganisationEvents events = new OrganisationEvents(PlatformJson.builder().build(),
      Clock.fixed(Instant.parse("2026-03-01T09:00:00.123Z"), ZoneOffset.UTC));

  @Test
  void organisationUpsertedOfATopLevelOrganisation() {
    Organisation organisation = new Organisation(OrganisationId.of("6f1c2b8e-1111-4222-8333-944455556666"), 7,
        "Duka", "254700000001", "ops@duka.example", "LP00000007AB", null, "sandbox", "https://duka.example/bank",
        "https://cdn.example/l.png", "Duka Ltd", List.of("1100223344", "1100223345"), CREATED,
        CREATED.plusSeconds(60), 3, 50);

    OutboxEvent event = events.upserted(organisation);

    assertThat(event.topic()).isEqualTo(Topics.ORGANISATIONS);
    assertThat(event.key()).isEqualTo("6f1c2b8e-1111-4222-8333-944455556666");
    PinnedEvents.assertPinned(Topics.ORGANISATIONS, event.payload(), "events/organisation.upserted.v1.json");
  }

  @Test
  void organisationUpsertedOfASubAccount() {
    Organisation organisation = new Organisation(OrganisationId.of("7a2d3c9f-2222-4333-8444-a55566667777"), 8,
        "Duka Branch", "254700000002", "branch@duka.example", "LP00000008CD",
        OrganisationId.of("6f1c2b8e-1111-4222-8333-944455556666"), "sandbox", null, null, null, List.of(), CREATED,
        CREATED, 1, null);

    OutboxEvent event = events.upserted(organisation);

    assertThat(event.key()).isEqualTo("7a2d3c9f-2222-4333-8444-a55566667777");
    PinnedEvents.assertPinned(Topics.ORGANISATIONS, event.payload(),
        "events/organisation.upserted.sub-account.v1.json");
  }
}

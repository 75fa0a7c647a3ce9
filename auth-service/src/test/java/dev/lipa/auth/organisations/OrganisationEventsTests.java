package dev.lipa.auth.organisations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pins the exact JSON of {@code organisation.upserted} on payments.organisations.v1: every service copies its profiles
 * from it (common's organisation directory), and the topic is compacted, so the latest record of an organisation may
 * be read by releases long after it was written. Only the generated eventId is filled in by name.
 */
class OrganisationEventsTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();
  private static final Instant CREATED = Instant.parse("2025-03-01T08:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-01T09:00:00.123Z");
  private final OrganisationEvents events = new OrganisationEvents(JSON, Clock.fixed(NOW, ZoneOffset.UTC));

  private static void assertPinned(OutboxEvent event, String organisationId, String pinned) {
    assertThat(event.topic()).isEqualTo(Topics.ORGANISATIONS);
    assertThat(event.key()).isEqualTo(organisationId);
    assertThat(event.payload()).isEqualTo(pinned.replace("<eventId>", event.eventId()));
  }

  @Test
  void aTopLevelOrganisationWithItsBankAccountsAndBranding() {
    Organisation organisation = new Organisation(OrganisationId.of("6f1c2b8e-1111-4222-8333-944455556666"), 7, "Duka",
        "254700000001", "ops@duka.example", "LP00000007AB", null, "sandbox", "https://duka.example/bank",
        "https://cdn.example/l.png", "Duka Ltd", List.of("1100223344", "1100223345"), CREATED,
        CREATED.plusSeconds(60), 3, 50);

    assertPinned(events.upserted(organisation), organisation.organisationId().value(), """
        {"eventId":"<eventId>","type":"organisation.upserted","version":1,\
        "occurredAt":"2026-03-01T09:00:00.123Z","organisationId":"6f1c2b8e-1111-4222-8333-944455556666",\
        "data":{"organisationId":"6f1c2b8e-1111-4222-8333-944455556666","id":7,"name":"Duka",\
        "phoneNumber":"254700000001","email":"ops@duka.example","uniqueReference":"LP00000007AB",\
        "environment":"sandbox","collectionCallbackUrl":"https://duka.example/bank",\
        "parentOrganisationId":null,"parent":true,"bankAccountNumbers":["1100223344","1100223345"],\
        "logoUrl":"https://cdn.example/l.png","displayName":"Duka Ltd","createdAt":"2025-03-01T08:00:00Z",\
        "updatedAt":"2025-03-01T08:01:00Z","revision":3}}""");
  }

  @Test
  void aSubAccountNamesItsParent() {
    Organisation organisation = new Organisation(OrganisationId.of("7a2d3c9f-2222-4333-8444-a55566667777"), 8, "Duka Branch",
        "254700000002", "branch@duka.example", "LP00000008CD", OrganisationId.of("6f1c2b8e-1111-4222-8333-944455556666"), "sandbox",
        null, null, null, List.of(), CREATED, CREATED, 1, null);

    assertPinned(events.upserted(organisation), organisation.organisationId().value(), """
        {"eventId":"<eventId>","type":"organisation.upserted","version":1,\
        "occurredAt":"2026-03-01T09:00:00.123Z","organisationId":"7a2d3c9f-2222-4333-8444-a55566667777",\
        "data":{"organisationId":"7a2d3c9f-2222-4333-8444-a55566667777","id":8,"name":"Duka Branch",\
        "phoneNumber":"254700000002","email":"branch@duka.example","uniqueReference":"LP00000008CD",\
        "environment":"sandbox","collectionCallbackUrl":null,\
        "parentOrganisationId":"6f1c2b8e-1111-4222-8333-944455556666","parent":false,"bankAccountNumbers":[],\
        "logoUrl":null,"displayName":null,"createdAt":"2025-03-01T08:00:00Z",\
        "updatedAt":"2025-03-01T08:00:00Z","revision":1}}""");
  }
}

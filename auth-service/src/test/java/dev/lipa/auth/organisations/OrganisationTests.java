package dev.lipa.auth.organisations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class OrganisationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Instant CREATED = Instant.parse("2025-03-01T08:00:00Z");
  private static final Instant LATER = CREATED.plusSeconds(60);

  private static Organisation created() {
    return new Organisation(OrganisationId.of("6f1c2b8e-1111-4222-8333-944455556666"), 7, "Duka", "254700000001", "ops@duka.example",
        "LP00000007AB", null, "sandbox", null, null, null, List.of(), CREATED, CREATED, 1, null);
  }

  private static OrganisationChanges changes(String json) {
    return OrganisationChanges.from(JSON.readTree(json));
  }

  @Test
  void aChangeMovesToTheNextRevisionAndStampsTheTime() {
    Organisation changed = created().change(changes("{\"displayName\":\"Duka Ltd\"}"), LATER);

    assertThat(changed.displayName()).isEqualTo("Duka Ltd");
    assertThat(changed.revision()).isEqualTo(2);
    assertThat(changed.updatedAt()).isEqualTo(LATER);
    assertThat(changed.createdAt()).isEqualTo(CREATED);
    assertThat(changed.name()).isEqualTo("Duka");
  }

  @Test
  void aChangeToTheSameValuesIsNoChange() {
    Organisation organisation = created();

    assertThat(organisation.change(changes("{\"name\":\"Duka\",\"bankAccountNumbers\":[]}"), LATER))
        .isSameAs(organisation);
  }

  @Test
  void anExplicitNullClears() {
    Organisation changed = created().change(changes("{\"email\":null}"), LATER);

    assertThat(changed.email()).isNull();
    assertThat(changed.phoneNumber()).isEqualTo("254700000001");
  }

  @Test
  void aTopLevelOrganisationsProfileIsAParent() {
    assertThat(created().profile().parent()).isTrue();
    assertThat(created().profile().parentOrganisationId()).isNull();
  }
}

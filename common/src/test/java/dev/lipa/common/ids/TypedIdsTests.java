package dev.lipa.common.ids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.core.convert.support.DefaultConversionService;
import tools.jackson.databind.json.JsonMapper;

class TypedIdsTests {

  private final JsonMapper json = JsonMapper.builder().build();

  @Test
  void anOrganisationIdIsItsTextInJsonAndInLogs() {
    OrganisationId id = OrganisationId.of("5f0c2d6e-1b7a-4c1e-9a51-0d4b7f3a9e21");

    assertThat(json.writeValueAsString(id)).isEqualTo("\"5f0c2d6e-1b7a-4c1e-9a51-0d4b7f3a9e21\"");
    assertThat(json.readValue("\"5f0c2d6e-1b7a-4c1e-9a51-0d4b7f3a9e21\"", OrganisationId.class)).isEqualTo(id);
    assertThat(id).hasToString("5f0c2d6e-1b7a-4c1e-9a51-0d4b7f3a9e21");
  }

  @Test
  void anOrganisationIdIsNeverMissingOrEmpty() {
    assertThatThrownBy(() -> OrganisationId.of(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> OrganisationId.of("")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPathVariableBecomesAnOrganisationIdThroughSpringsConversion() {
    // the operator API takes {organisationId} path variables straight into this type
    assertThat(new DefaultConversionService().convert("org-a", OrganisationId.class))
        .isEqualTo(OrganisationId.of("org-a"));
  }

  @Test
  void aRequestIdIsItsUuidTextInJsonAndInLogs() {
    UUID uuid = UUID.fromString("0b6f1f0e-8d8a-4f43-9d55-3c2d1e0f9a77");
    RequestId id = RequestId.of(uuid);

    assertThat(json.writeValueAsString(id)).isEqualTo("\"0b6f1f0e-8d8a-4f43-9d55-3c2d1e0f9a77\"");
    assertThat(json.readValue("\"0b6f1f0e-8d8a-4f43-9d55-3c2d1e0f9a77\"", RequestId.class)).isEqualTo(id);
    assertThat(RequestId.parse(" 0b6f1f0e-8d8a-4f43-9d55-3c2d1e0f9a77 ")).isEqualTo(id);
    assertThat(id).hasToString(uuid.toString());
  }

  @Test
  void aRequestIdIsAlwaysAUuid() {
    assertThatThrownBy(() -> RequestId.parse("not-a-uuid")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RequestId.of(null)).isInstanceOf(NullPointerException.class);
    assertThat(RequestId.random()).isNotEqualTo(RequestId.random());
  }
}

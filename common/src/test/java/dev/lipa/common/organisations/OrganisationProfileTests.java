package dev.lipa.common.organisations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class OrganisationProfileTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Instant CREATED = Instant.parse("2025-03-01T08:00:00.123Z");

  private static OrganisationProfile subAccount() {
    return new OrganisationProfile("6f1c2b8e-1111-4222-8333-944455556666", 7, "Branch", "254700000001",
        "ops@duka.example", "LP00000007AB", "sandbox", "https://merchant.example/bank", "0a1b2c3d-0000-4000-8000-000000000001",
        false, List.of("0123456789"), "https://cdn.example/logo.png", "Duka", CREATED, CREATED.plusSeconds(60), 3);
  }

  @Test
  void pinsTheEventDataJson() {
    assertThat(JSON.writeValueAsString(subAccount().toEventData())).isEqualTo("{"
        + "\"organisationId\":\"6f1c2b8e-1111-4222-8333-944455556666\",\"id\":7,\"name\":\"Branch\","
        + "\"phoneNumber\":\"254700000001\",\"email\":\"ops@duka.example\",\"uniqueReference\":\"LP00000007AB\","
        + "\"environment\":\"sandbox\",\"collectionCallbackUrl\":\"https://merchant.example/bank\","
        + "\"parentOrganisationId\":\"0a1b2c3d-0000-4000-8000-000000000001\",\"parent\":false,"
        + "\"bankAccountNumbers\":[\"0123456789\"],\"logoUrl\":\"https://cdn.example/logo.png\","
        + "\"displayName\":\"Duka\",\"createdAt\":\"2025-03-01T08:00:00.123Z\","
        + "\"updatedAt\":\"2025-03-01T08:01:00.123Z\",\"revision\":3}");
  }

  @Test
  void readsBackWhatItWritesIgnoringUnknownFields() {
    var data = JSON.valueToTree(subAccount().toEventData());
    ((tools.jackson.databind.node.ObjectNode) data).put("addedLater", "x");

    assertThat(OrganisationProfile.fromEventData(data)).isEqualTo(subAccount());
  }

  @Test
  void refusesDataWithoutRevision() {
    var data = (tools.jackson.databind.node.ObjectNode) JSON.valueToTree(subAccount().toEventData());
    data.remove("revision");

    assertThatThrownBy(() -> OrganisationProfile.fromEventData(data)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rendersBothSpecShapes() {
    ZoneId nairobi = ZoneId.of("Africa/Nairobi");

    assertThat(JSON.writeValueAsString(RecordOrganisation.of(OrganisationId.of("x"), Optional.of(subAccount()), nairobi)))
        .isEqualTo("{\"id\":7,\"uuid\":\"6f1c2b8e-1111-4222-8333-944455556666\",\"name\":\"Branch\","
            + "\"phoneNumber\":\"254700000001\",\"email\":\"ops@duka.example\",\"uniqueReference\":\"LP00000007AB\","
            + "\"createdAt\":\"2025-03-01T11:00:00.123000\",\"updatedAt\":\"2025-03-01T11:01:00.123000\"}");
    assertThat(JSON.writeValueAsString(BankRecordOrganisation.of(OrganisationId.of("x"), Optional.of(subAccount()))))
        .isEqualTo("{\"uuid\":\"6f1c2b8e-1111-4222-8333-944455556666\",\"name\":\"Branch\","
            + "\"phoneNumber\":\"254700000001\",\"environment\":\"sandbox\","
            + "\"collectionCallbackUrl\":\"https://merchant.example/bank\","
            + "\"parentOrganisation\":\"0a1b2c3d-0000-4000-8000-000000000001\",\"parent\":false}");
  }

  @Test
  void rendersOnlyTheUuidWhileTheProfileIsUnknown() {
    assertThat(JSON.writeValueAsString(BankRecordOrganisation.of(OrganisationId.of("abc"), Optional.empty()))).isEqualTo(
        "{\"uuid\":\"abc\",\"name\":null,\"phoneNumber\":null,\"environment\":null,\"collectionCallbackUrl\":null,"
            + "\"parentOrganisation\":null,\"parent\":null}");
  }
}

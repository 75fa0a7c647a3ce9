package dev.lipa.auth.organisations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.web.ValidationException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class NewOrganisationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String PARENT = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  @Test
  void needsOnlyAName() {
    NewOrganisation organisation = NewOrganisation.from(json("{\"name\":\"Duka La Mama\"}"));

    assertThat(organisation).isEqualTo(new NewOrganisation("Duka La Mama", null, null, null));
  }

  @Test
  void keepsPhoneNumbersAsInternationalDigits() {
    NewOrganisation organisation = NewOrganisation.from(json(
        "{\"name\":\"Duka\",\"phoneNumber\":\"+254712345678\",\"email\":\"ops@duka.co.ke\","
            + "\"parentOrganisationId\":\"" + PARENT.toUpperCase() + "\"}"));

    assertThat(organisation.phoneNumber()).isEqualTo("254712345678");
    assertThat(organisation.email()).isEqualTo("ops@duka.co.ke");
    assertThat(organisation.parentOrganisationId()).isEqualTo(OrganisationId.of(PARENT));
  }

  static Stream<Arguments> invalidBodies() {
    return Stream.of(
        Arguments.of(Named.named("name missing", "{}"), "name", "name is required"),
        Arguments.of(Named.named("name blank", "{\"name\":\" \"}"), "name", "name is required"),
        Arguments.of(Named.named("name a number", "{\"name\":42}"), "name", "name must be a string"),
        Arguments.of(Named.named("name of 101 characters", "{\"name\":\"" + "n".repeat(101) + "\"}"), "name",
            "name must be at most 100 characters"),
        Arguments.of(Named.named("email without @", "{\"name\":\"n\",\"email\":\"ops.duka.co.ke\"}"), "email",
            "email must be a valid email address"),
        Arguments.of(Named.named("email without domain dot", "{\"name\":\"n\",\"email\":\"ops@duka\"}"), "email",
            "email must be a valid email address"),
        Arguments.of(Named.named("email with a space", "{\"name\":\"n\",\"email\":\"o ps@duka.co.ke\"}"), "email",
            "email must be a valid email address"),
        Arguments.of(Named.named("local phone number", "{\"name\":\"n\",\"phoneNumber\":\"0712345678\"}"),
            "phoneNumber", "phoneNumber must be an international number: country code and digits, e.g. 254712345678"),
        Arguments.of(Named.named("phone number with letters", "{\"name\":\"n\",\"phoneNumber\":\"2547123abc\"}"),
            "phoneNumber", "phoneNumber must be an international number: country code and digits, e.g. 254712345678"),
        Arguments.of(Named.named("phone number too short", "{\"name\":\"n\",\"phoneNumber\":\"2547123\"}"),
            "phoneNumber", "phoneNumber must be an international number: country code and digits, e.g. 254712345678"),
        Arguments.of(Named.named("phone number a number", "{\"name\":\"n\",\"phoneNumber\":254712345678}"),
            "phoneNumber", "phoneNumber must be a string"),
        Arguments.of(Named.named("parent not a UUID", "{\"name\":\"n\",\"parentOrganisationId\":\"org-1\"}"),
            "parentOrganisationId", "parentOrganisationId must be an organisation id (a UUID)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidBodies")
  void refusesTheField(String body, String field, String message) {
    assertThatThrownBy(() -> NewOrganisation.from(json(body)))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).isEqualTo(Map.of(field, List.of(message))));
  }

  @Test
  void namesEveryFailingFieldAtOnce() {
    assertThatThrownBy(() -> NewOrganisation.from(json("{\"email\":\"x\",\"phoneNumber\":\"1\"}")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).containsOnlyKeys("name", "email", "phoneNumber"));
  }
}

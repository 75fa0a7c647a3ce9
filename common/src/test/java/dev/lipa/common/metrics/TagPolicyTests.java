package dev.lipa.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The tag rule: whoever registers a meter, no tag value the registry keeps is an id, a raw path or a phone number. */
class TagPolicyTests {

  private final MeterRegistry registry = registryWithPolicy();

  private static MeterRegistry registryWithPolicy() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    registry.config().meterFilter(new TagPolicy());
    return registry;
  }

  private List<String> tagValues(String name) {
    return registry.find(name).meters().stream().map(Meter::getId)
        .flatMap(id -> id.getTags().stream().map(tag -> tag.getKey() + "=" + tag.getValue())).toList();
  }

  @ParameterizedTest
  @CsvSource({
      "uri, /api/v1/callbacks/5f0c6a36-3b7e-4a4e-9d0f-1f2f3a4b5c6d",
      "uri, /api/sandbox/v1/stk/5F0C6A363B7E4A4E9D0F1F2F3A4B5C6D",
      "uri, /api/v1/tz/collections/single?requestId=5f0c6a36-3b7e-4a4e-9d0f-1f2f3a4b5c6d",
      "uri, /api/sandbox/v1/stk/254712345678",
      "receiver, +255712345678",
      "account, 0712345678901",
      "organisationId, acme",
      "organisation_id, acme",
      "requestId, r-1",
      "phoneNumber, 0712",
      "path, /api/sandbox/v1/stk/all",
      "PATH, /x",
      "client.address, 10.0.0.1",
      "callbackUrl, https://merchant.example/cb"})
  void redactsAValueThatIsAnIdAPhoneNumberOrARawPathWhateverTheTagIsCalled(String key, String value) {
    Counter.builder("lipa.test").tag(key, value).register(registry).increment();

    assertThat(tagValues("lipa.test")).containsExactly(key + "=" + TagPolicy.REDACTED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/sandbox/v1/stk/all", "/api/v1/banks/{bankCode}/notifications", "UNKNOWN",
      "NOT_FOUND", "/actuator/prometheus"})
  void keepsRouteTemplates(String template) {
    Counter.builder("lipa.test").tag("uri", template).tag("status", "201").register(registry).increment();

    assertThat(tagValues("lipa.test")).containsExactlyInAnyOrder("uri=" + template, "status=201");
  }

  @Test
  void keepsThePlatformsOwnLowCardinalityValuesAndKafkasNodeIds() {
    Counter.builder("lipa.test").tag("topic", "payments.collections.v1.payouts-ledger.dlt")
        .tag("client.id", "consumer-payouts-ledger-1").tag("node.id", "node-2147483646")
        .tag("application", "collections-service").tag("kind", "stk_push").register(registry);

    assertThat(tagValues("lipa.test")).containsExactlyInAnyOrder("topic=payments.collections.v1.payouts-ledger.dlt",
        "client.id=consumer-payouts-ledger-1", "node.id=node-2147483646", "application=collections-service",
        "kind=stk_push");
  }

  @Test
  void requestsWithDifferentIdsShareOneSeries() {
    for (int i = 0; i < 100; i++) {
      Counter.builder("lipa.test").tag("uri", "/api/sandbox/v1/stk/" + java.util.UUID.randomUUID())
          .register(registry).increment();
    }

    assertThat(registry.find("lipa.test").counters()).hasSize(1);
    assertThat(registry.find("lipa.test").counter().count()).isEqualTo(100);
  }
}

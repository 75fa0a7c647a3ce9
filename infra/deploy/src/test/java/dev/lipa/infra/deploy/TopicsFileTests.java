package dev.lipa.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * topics.yaml declares the live environment's topics beside the sandbox's: every operational topic has its live twin
 * ({@code live.} + its name) with the same settings, read by the same consumer groups with {@code -live} (but the
 * sandbox's simulated rails, which live never runs, and plus the live rails'); the organisations topic is one for both
 * environments, read by the groups of both.
 */
class TopicsFileTests {

  static final String LIVE_TOPIC_PREFIX = "live.";
  static final String LIVE_GROUP_SUFFIX = "-live";
  static final String ORGANISATIONS = "payments.organisations.v1";

  /** The sandbox group a live group is the twin of (itself for a sandbox group). */
  static String sandboxTwin(String group) {
    return group.endsWith(LIVE_GROUP_SUFFIX) ? group.substring(0, group.length() - LIVE_GROUP_SUFFIX.length()) : group;
  }

  @Test
  void everyOperationalTopicHasItsLiveTwinReadByTheLiveGroups() {
    Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
    topics().forEach(t -> byName.put((String) t.get("name"), t));

    for (Map<String, Object> topic : byName.values()) {
      String name = (String) topic.get("name");
      if (name.equals(ORGANISATIONS) || name.startsWith(LIVE_TOPIC_PREFIX)) {
        continue;
      }
      Map<String, Object> twin = byName.get(LIVE_TOPIC_PREFIX + name);
      assertThat(twin).as("the live twin of " + name).isNotNull();
      assertThat(twin.get("cleanupPolicy")).isEqualTo(topic.get("cleanupPolicy"));
      assertThat(twin.get("partitions")).isEqualTo(topic.get("partitions"));
      List<String> expected = groups(topic).stream().filter(g -> !g.contains("sandbox-rail"))
          .map(g -> g + LIVE_GROUP_SUFFIX).toList();
      assertThat(groups(twin).stream().filter(g -> !g.contains("daraja-rail")))
          .as("the groups reading " + twin.get("name")).containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(byName.keySet()).filteredOn(n -> n.startsWith(LIVE_TOPIC_PREFIX))
        .allSatisfy(n -> assertThat(byName).as("the sandbox topic of " + n)
            .containsKey(n.substring(LIVE_TOPIC_PREFIX.length())));
  }

  @Test
  void theOrganisationsTopicIsOneForBothEnvironments() {
    Map<String, Object> organisations = topics().stream().filter(t -> ORGANISATIONS.equals(t.get("name"))).findFirst()
        .orElseThrow();
    List<String> groups = groups(organisations);

    assertThat(topics()).extracting(t -> t.get("name")).doesNotContain(LIVE_TOPIC_PREFIX + ORGANISATIONS);
    assertThat(groups).filteredOn(g -> !g.endsWith(LIVE_GROUP_SUFFIX)).isNotEmpty()
        .allSatisfy(g -> assertThat(groups).contains(g + LIVE_GROUP_SUFFIX));
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> topics() {
    return (List<Map<String, Object>>) Repository.topicsFile().get("topics");
  }

  @SuppressWarnings("unchecked")
  private static List<String> groups(Map<String, Object> topic) {
    Object groups = topic.get("consumerGroups");
    return groups == null ? List.of() : (List<String>) groups;
  }
}

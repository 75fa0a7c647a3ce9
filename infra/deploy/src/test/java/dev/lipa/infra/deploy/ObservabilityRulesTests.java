package dev.lipa.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The alert rules and the dashboard of infra/observability: the rules pass {@code promtool check rules}, every alert
 * has a {@code promtool test rules} case that fires it, the cases pass, and they fail when a rule is weakened (so they
 * test the rules, not themselves). Debian's promtool (package prometheus) runs them: skipped, saying so, where it is
 * missing, and required in CI, where .ci/run installs it. Whether every metric the rules and the dashboard name exists
 * on a running platform is infra/launcher's ObservedMetricsSystemTests.
 */
class ObservabilityRulesTests {

  private static final Path DIR = Repository.root().resolve("infra/observability");

  @TempDir
  Path scratch;

  @BeforeEach
  void promtool() {
    Tools.require("promtool", "apt-get install prometheus");
  }

  @Test
  void theAlertRulesPassPromtoolsCheck() {
    Tools.Result check = promtool(DIR, "check", "rules", "alerts.yml");

    assertThat(check.status()).as(check.output()).isZero();
    assertThat(check.output()).contains("SUCCESS: " + alerts().size() + " rules found");
  }

  @Test
  void everyAlertHasATestCaseThatFiresItAndTheCasesPass() {
    Set<String> fired = new LinkedHashSet<>();
    for (Map<String, Object> test : list(tests().get("tests"))) {
      for (Map<String, Object> check : list(test.get("alert_rule_test"))) {
        if (!list(check.get("exp_alerts")).isEmpty()) {
          fired.add((String) check.get("alertname"));
        }
      }
    }
    assertThat(fired).as("alerts with a case expecting them to fire").containsExactlyInAnyOrderElementsOf(alerts());

    Tools.Result test = promtool(DIR, "test", "rules", "alerts-tests.yml");
    assertThat(test.status()).as(test.output()).isZero();
    assertThat(test.output()).contains("SUCCESS");
  }

  @Test
  void theCasesFailWhenARuleIsWeakened() throws IOException {
    // each weakening stands for a mistake a rule could have: a threshold, a grouping, a function, a label
    Map<String, String> weakenings = Map.of(
        "/ sum by (application) (rate(http_server_requests_seconds_count[5m])) > 0.05",
        "/ sum by (application) (rate(http_server_requests_seconds_count[5m])) > 0.5",
        "max by (application) (lipa_dead_letters_waiting) > 0",
        "sum by (application) (lipa_dead_letters_waiting) > 0",
        "max by (application) (lipa_stk_unresolved) > 0", "sum by (application) (lipa_stk_unresolved) > 0",
        "max_over_time(lipa_outbox_oldest_age_seconds[2m])", "lipa_outbox_oldest_age_seconds",
        "increase(lipa_callbacks_dead_total[15m])", "increase(lipa_callbacks_dead_total[1m])",
        "kafka_consumer_fetch_manager_records_lag_max) > 1000", "kafka_consumer_fetch_manager_records_lag_max) > 10000",
        "max by (application) (lipa_reconciliation_latest{status=\"different\"}) > 0",
        "max by (application) (lipa_reconciliation_latest{status!=\"matched\"}) > 0",
        "(lipa_reconciliation_age_seconds) > 108000", "(lipa_reconciliation_age_seconds) > 216000");
    String rules = Files.readString(DIR.resolve("alerts.yml"));
    Files.copy(DIR.resolve("alerts-tests.yml"), scratch.resolve("alerts-tests.yml"));
    for (Map.Entry<String, String> weakening : weakenings.entrySet()) {
      assertThat(rules).contains(weakening.getKey());
      Files.writeString(scratch.resolve("alerts.yml"), rules.replace(weakening.getKey(), weakening.getValue()));

      Tools.Result test = promtool(scratch, "test", "rules", "alerts-tests.yml");

      assertThat(test.status()).as("promtool test rules with %s", weakening.getValue()).isNotZero();
      assertThat(test.output()).contains("FAILED");
    }
  }

  @Test
  void theDashboardIsAGrafanaDashboardWhosePanelsAllHaveQueries() throws IOException {
    JsonNode dashboard = JsonMapper.shared().readTree(Files.readString(DIR.resolve("dashboard.json")));

    assertThat(dashboard.path("title").asString()).isNotBlank();
    assertThat(dashboard.path("uid").asString()).isNotBlank();
    assertThat(dashboard.path("schemaVersion").asInt()).isPositive();
    List<String> expressions = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asString().equals("row")) {
        continue;
      }
      assertThat(panel.path("title").asString()).isNotBlank();
      assertThat(panel.path("targets").isEmpty()).as(panel.path("title").asString()).isFalse();
      for (JsonNode target : panel.path("targets")) {
        assertThat(target.path("expr").asString()).as(panel.path("title").asString()).isNotBlank();
        expressions.add(target.path("expr").asString());
      }
    }
    assertThat(expressions).hasSizeGreaterThanOrEqualTo(10);
  }

  private static List<String> alerts() {
    Map<String, Object> file = Repository.yaml(Repository.read(DIR.resolve("alerts.yml")));
    List<String> names = new ArrayList<>();
    for (Map<String, Object> group : list(file.get("groups"))) {
      for (Map<String, Object> rule : list(group.get("rules"))) {
        names.add((String) rule.get("alert"));
      }
    }
    return names;
  }

  private static Map<String, Object> tests() {
    return Repository.yaml(Repository.read(DIR.resolve("alerts-tests.yml")));
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Object value) {
    return value == null ? List.of() : (List<Map<String, Object>>) value;
  }

  private static Tools.Result promtool(Path dir, String... arguments) {
    List<String> command = new ArrayList<>(List.of("promtool"));
    command.addAll(List.of(arguments));
    return Tools.run(dir, Map.of(), 60, command);
  }
}

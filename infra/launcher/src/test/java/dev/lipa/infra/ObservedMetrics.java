package dev.lipa.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The metric names infra/observability's alert rules and dashboard ask for, read from their PromQL, and the names a
 * service's {@code /actuator/prometheus} page offers: what the system test compares.
 */
final class ObservedMetrics {

  static final Path DIR = Launcher.ROOT.resolve("infra/observability");
  /** Series Prometheus makes itself for every target; no service exports them. */
  static final Set<String> PROMETHEUS_OWN = Set.of("up", "scrape_duration_seconds", "scrape_samples_scraped");
  /**
   * Series only a live stack's services export (./platform up runs the sandbox): the funds reconciliation's, which
   * payouts-service's BalanceReconciliationIntegrationTests finds on a live service's page.
   */
  static final Set<String> LIVE_STACK_ONLY = Set.of("lipa_reconciliation_latest", "lipa_reconciliation_age_seconds");

  private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
  private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
  private static final Pattern RANGES = Pattern.compile("\\[[^\\]]*]");
  private static final Pattern GROUPINGS = Pattern.compile(
      "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan");

  private ObservedMetrics() {
  }

  /** Every PromQL expression of alerts.yml and dashboard.json. */
  static List<String> expressions() throws IOException {
    List<String> expressions = new ArrayList<>();
    JsonNode alerts = YAMLMapper.shared().readTree(Files.readString(DIR.resolve("alerts.yml")));
    for (JsonNode group : alerts.path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        expressions.add(rule.path("expr").asString());
      }
    }
    JsonNode dashboard = JsonMapper.shared().readTree(Files.readString(DIR.resolve("dashboard.json")));
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        expressions.add(target.path("expr").asString());
      }
    }
    return expressions;
  }

  /** The metric names one PromQL expression selects (not its functions, keywords, labels or durations). */
  static Set<String> metricNames(String expression) {
    String stripped = STRINGS.matcher(expression).replaceAll(" ");
    stripped = MATCHERS.matcher(stripped).replaceAll(" ");
    stripped = RANGES.matcher(stripped).replaceAll(" ");
    stripped = GROUPINGS.matcher(stripped).replaceAll(" ");
    Set<String> names = new TreeSet<>();
    Matcher token = IDENTIFIER.matcher(stripped);
    while (token.find()) {
      String rest = stripped.substring(token.end()).stripLeading();
      boolean call = rest.startsWith("(");
      boolean number = token.start() > 0 && Character.isDigit(stripped.charAt(token.start() - 1));
      if (!call && !number && !KEYWORDS.contains(token.group())) {
        names.add(token.group());
      }
    }
    return names;
  }

  /** The metric names of every expression of the rules and the dashboard. */
  static Set<String> namesUsed() throws IOException {
    Set<String> names = new TreeSet<>();
    for (String expression : expressions()) {
      names.addAll(metricNames(expression));
    }
    return names;
  }

  /** The metric names of a Prometheus text page ({@code name{labels} value} lines). */
  static Set<String> namesOffered(String page) {
    Set<String> names = new TreeSet<>();
    for (String line : page.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int end = 0;
      while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
        end++;
      }
      names.add(line.substring(0, end));
    }
    return names;
  }
}

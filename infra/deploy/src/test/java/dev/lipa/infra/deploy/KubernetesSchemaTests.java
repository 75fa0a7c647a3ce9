package dev.lipa.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Every object the chart renders, checked against the Kubernetes API's schemas by npm's kubernetes-models (installed
 * under target/ by the test itself), with the chart's default values and with every optional part switched on. */
class KubernetesSchemaTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static Path validator;

  @BeforeAll
  static void installValidator() throws IOException {
    Tools.require("node", "apt-get install nodejs npm");
    Tools.require("npm", "apt-get install npm");
    Path dir = Path.of("target/kubernetes-models").toAbsolutePath();
    String version = System.getProperty("kubernetes-models.version", "4.5.1");
    Files.createDirectories(dir);
    if (!Files.isRegularFile(dir.resolve("node_modules/kubernetes-models/package.json"))
        || !Files.readString(dir.resolve("node_modules/kubernetes-models/package.json")).contains("\"" + version + "\"")) {
      Tools.Result install = Tools.run(dir, Map.of(), 300, List.of("npm", "install", "--no-audit", "--no-fund",
          "--loglevel=error", "--prefix", dir.toString(), "kubernetes-models@" + version));
      assertThat(install.status()).as("npm install kubernetes-models@%s: %s", version, install.output()).isZero();
    }
    validator = dir.resolve("validate-kubernetes.mjs");
    Files.copy(Path.of("src/test/node/validate-kubernetes.mjs"), validator,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void everyObjectRenderedWithTheDefaultValuesIsValid() throws IOException {
    List<Map<String, Object>> objects = RenderedChart.render().objects();

    List<Map<String, Object>> results = validate(objects);

    assertThat(results).hasSameSizeAs(objects).allSatisfy(r ->
        assertThat(r.get("result")).as("%s %s: %s", r.get("kind"), r.get("name"), r.get("error"))
            .isIn("valid", "custom"));
    assertThat(results).filteredOn(r -> "custom".equals(r.get("result")))
        .allSatisfy(r -> assertThat(r.get("kind")).isEqualTo("KafkaTopic"));
    assertThat(results).filteredOn(r -> "valid".equals(r.get("result"))).extracting(r -> r.get("kind"))
        .contains("Deployment", "Service", "ConfigMap", "Secret", "PodDisruptionBudget", "HorizontalPodAutoscaler",
            "NetworkPolicy");
  }

  @Test
  void everyObjectRenderedWithEveryOptionalPartIsValid() throws IOException {
    Map<String, Object> sets = new LinkedHashMap<>();
    sets.put("networkPolicy.railCallbacks.collections-service[0].ipBlock.cidr", "196.201.214.0/24");
    sets.put("networkPolicy.gatewayFrom[0].namespaceSelector.matchLabels.name", "ingress");
    sets.put("kafka.networkCidrs[0]", "10.20.0.0/16");
    sets.put("mongodb.namespaceSelector.matchLabels.name", "databases");
    sets.put("mongodb.podSelector.matchLabels.app", "mongodb");
    sets.put("secrets.bankPartners.sandbox-bank", "s3cret");
    sets.put("imagePullSecrets[0].name", "registry");
    sets.put("config.springProfilesActive", "production");
    List<Map<String, Object>> objects = RenderedChart.render(sets).objects();

    assertThat(validate(objects)).allSatisfy(r ->
        assertThat(r.get("result")).as("%s %s: %s", r.get("kind"), r.get("name"), r.get("error"))
            .isIn("valid", "custom"));
  }

  @Test
  void theValidatorRefusesAnObjectThatBreaksTheSchema() throws IOException {
    // the validator is not a formality: the Deployment the chart renders, with a text where a number must be
    List<Map<String, Object>> objects = new ArrayList<>(RenderedChart.render().ofKind("Deployment"));
    Map<String, Object> broken = JSON.readValue(JSON.writeValueAsString(objects.getFirst()), Map.class);
    HelmChartTests.map(broken.get("spec")).put("replicas", "two");
    Map<String, Object> unknownKind = new LinkedHashMap<>(objects.getFirst());
    unknownKind.put("kind", "Deploymnet");

    List<Map<String, Object>> results = validate(List.of(broken, unknownKind));

    assertThat(results).extracting(r -> r.get("result")).containsExactly("invalid", "unknown");
    assertThat((String) results.getFirst().get("error")).contains("replicas");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> validate(List<Map<String, Object>> objects) throws IOException {
    Path input = Files.createTempFile(validator.getParent(), "rendered", ".json");
    try {
      JSON.writeValue(input.toFile(), objects);
      Tools.Result result = Tools.run(validator.getParent(), Map.of(), 120,
          List.of("node", validator.toString(), input.toString()));
      List<Map<String, Object>> lines = new ArrayList<>();
      for (String line : result.output().split("\n")) {
        if (line.startsWith("{")) {
          lines.add(JSON.readValue(line, Map.class));
        }
      }
      assertThat(lines).as("the validator's output: %s", result.output()).hasSize(objects.size());
      assertThat(result.status() == 0)
          .isEqualTo(lines.stream().allMatch(l -> List.of("valid", "custom").contains(l.get("result"))));
      return lines;
    } finally {
      Files.deleteIfExists(input);
    }
  }
}

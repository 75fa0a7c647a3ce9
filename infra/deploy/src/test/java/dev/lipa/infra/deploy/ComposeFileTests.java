package dev.lipa.infra.deploy;

import static dev.lipa.infra.deploy.Repository.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compose file, as Debian's docker-compose reads it (docker-compose config): the whole platform on a three-node
 * MongoDB replica set and three KRaft brokers, on the ports of ./platform's PORT_TABLE, with the chart's topics. */
class ComposeFileTests {

  private static final Map<String, String> SECRETS = Map.of("LIPA_OPERATOR_TOKEN", "operator-token",
      "LIPA_INTERNAL_TOKEN", "internal-token", "LIPA_SECRETS_MASTER_KEYS", "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
  private static Map<String, Object> config;

  @BeforeAll
  static void resolve() {
    Tools.require("docker-compose", "apt-get install docker-compose");
    Tools.Result result = compose(Repository.deploy().resolve("compose.yaml"), SECRETS);
    assertThat(result.status()).as("docker-compose config: %s", result.output()).isZero();
    config = Repository.yaml(result.output().substring(result.output().indexOf("services:")));
  }

  @Test
  void runsAThreeNodeMongoReplicaSetAndThreeKraftBrokers() {
    for (String node : List.of("mongo1", "mongo2", "mongo3")) {
      assertThat(String.join(" ", strings(at(service(node), "command")))).contains("--replSet rs0");
    }
    String initiate = String.join(" ", strings(at(service("mongo-replica-set"), "command")));
    assertThat(initiate).contains("rs.initiate", "mongo1:27017", "mongo2:27017", "mongo3:27017");
    for (int id = 1; id <= 3; id++) {
      Map<String, Object> env = HelmChartTests.map(at(service("kafka" + id), "environment"));
      assertThat(env).containsEntry("KAFKA_NODE_ID", String.valueOf(id))
          .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
          .containsEntry("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@kafka1:9093,2@kafka2:9093,3@kafka3:9093")
          .containsEntry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
          .containsEntry("KAFKA_MIN_INSYNC_REPLICAS", "2")
          .containsEntry("KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE", "false")
          .containsEntry("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://kafka" + id + ":9092");
    }
  }

  @Test
  void servicesListenOnThePortsOfThePlatformsPortTableAndOnlyTheGatewayIsPublished() {
    Map<String, Integer> ports = Repository.portTable();
    for (String service : Repository.SERVICES) {
      Map<String, Object> env = HelmChartTests.map(at(service(service), "environment"));
      assertThat(env).as(service).containsEntry("PORT", String.valueOf(ports.get(service)))
          .containsEntry("LIPA_BIND_ADDRESS", "0.0.0.0")
          // traces sampled at the platform's rate, exported only when the shell names a collector; JSON consoles
          .containsEntry("LIPA_TRACING_SAMPLING", "0.1").containsEntry("LIPA_OTLP_ENDPOINT", "")
          .containsEntry("LOGGING_STRUCTURED_FORMAT_CONSOLE", "ecs");
      assertThat((String) at(service(service), "image")).as(service).endsWith("/lipa-" + service + ":0.1.0-SNAPSHOT");
      assertThat(at(service(service), "user")).as(service).isEqualTo("10001:10001");
      assertThat(String.valueOf(env.get("JAVA_TOOL_OPTIONS"))).as(service).contains("-XX:MaxRAMPercentage=");
      // where each service finds the others: the table's ports
      for (String other : List.of("auth-service", "checkout-service", "collections-service", "payouts-service")) {
        String variable = other.substring(0, other.indexOf('-')).toUpperCase() + "_URI";
        assertThat(env).as(service).containsEntry(variable, "http://" + other + ":" + ports.get(other));
      }
      assertThat(env).as(service)
          .containsEntry("DISPATCHER_URI", "http://callback-dispatcher:" + ports.get("callback-dispatcher"))
          .containsEntry("JWKS_URI", "http://auth-service:" + ports.get("auth-service") + "/.well-known/jwks.json")
          .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "kafka1:9092,kafka2:9092,kafka3:9092");
      assertThat((String) env.get("MONGODB_URI")).as(service).contains("replicaSet=rs0", "w=majority");
      Set<String> platformPorts = new TreeSet<>(List.of(((String) env.get("LIPA_CALLBACKS_PLATFORM_PORTS")).split(",")));
      // one process per service here: the table's second replicas and brokers (./platform up --cluster) are not
      // the compose file's
      ports.forEach((listener, p) -> {
        if (!listener.matches(".*-\\d")) {
          assertThat(platformPorts).as(service).contains(String.valueOf(p));
        }
      });
    }
    List<String> published = new ArrayList<>();
    HelmChartTests.map(config.get("services")).forEach((name, definition) -> {
      if (at(definition, "ports") != null) {
        published.add(name);
      }
    });
    assertThat(published).containsExactly("gateway");
    // docker-compose 1.29 prints the short form, host address:published:target
    assertThat(String.valueOf(((List<?>) at(service("gateway"), "ports")).getFirst()))
        .isEqualTo("127.0.0.1:" + ports.get("gateway") + ":" + ports.get("gateway") + "/tcp");
  }

  @Test
  void refusesToRunWithoutTheSecrets() {
    Map<String, String> missing = new HashMap<>(SECRETS);
    missing.put("LIPA_INTERNAL_TOKEN", null);

    Tools.Result result = compose(Repository.deploy().resolve("compose.yaml"), missing);

    assertThat(result.status()).isNotZero();
    assertThat(result.output()).contains("LIPA_INTERNAL_TOKEN");
  }

  @Test
  void dockerComposeRefusesAFileOutsideItsSchema(@TempDir Path dir) throws IOException {
    // the check above is a real schema check: a misspelt key is refused
    Path broken = dir.resolve("compose.yaml");
    Files.writeString(broken, Repository.read(Repository.deploy().resolve("compose.yaml"))
        .replace("    restart: \"no\"\n", "    restartt: \"no\"\n"));

    Tools.Result result = compose(broken, SECRETS);

    assertThat(result.status()).isNotZero();
    assertThat(result.output()).contains("restartt");
  }

  @Test
  void theTopicsServiceCreatesExactlyTheChartsTopicsAndDeadLetterTopics() {
    Tools.Result printed = Tools.run(Repository.deploy(), Map.of(), 30, List.of("bash",
        "compose/create-topics.sh", "helm/lipa/topics.yaml", "kafka1:9092", "--print"));
    assertThat(printed.status()).as(printed.output()).isZero();
    Pattern create = Pattern.compile("--topic (\\S+) --partitions (\\d+) --replication-factor (\\d+)(.*)");
    Map<String, String> created = new LinkedHashMap<>();
    for (String line : printed.output().strip().split("\n")) {
      Matcher m = create.matcher(line);
      assertThat(m.find()).as(line).isTrue();
      created.put(m.group(1), m.group(2) + "/" + m.group(3) + config(m.group(4)));
    }
    Map<String, String> chartTopics = new LinkedHashMap<>();
    for (Map<String, Object> topic : RenderedChart.render().ofKind("KafkaTopic")) {
      Map<String, Object> topicConfig = HelmChartTests.map(at(topic, "spec.config"));
      StringBuilder flags = new StringBuilder();
      topicConfig.forEach((k, v) -> flags.append(" --config ").append(k).append('=').append(v));
      chartTopics.put((String) at(topic, "spec.topicName"),
          at(topic, "spec.partitions") + "/" + at(topic, "spec.replicas") + config(flags.toString()));
    }

    assertThat(created).isEqualTo(chartTopics);
  }

  // ------------------------------------------------------------------------------------------------ helpers

  private static String config(String flags) {
    return new TreeSet<>(List.of(flags.strip().split("\\s*--config\\s+"))).toString();
  }

  private static Tools.Result compose(Path file, Map<String, String> environment) {
    Map<String, String> env = new HashMap<>(environment);
    // nothing of the caller's environment changes what the file resolves to
    for (String variable : List.of("LIPA_REGISTRY", "LIPA_TAG", "GATEWAY_PORT", "KAFKA_IMAGE", "MONGO_IMAGE",
        "LIPA_CALLBACKS_ALLOW_PRIVATE_TARGETS", "LIPA_CHECKOUT_PUBLIC_BASE_URL", "LIPA_SPRING_PROFILES",
        "LIPA_TRACING_SAMPLING", "LIPA_OTLP_ENDPOINT")) {
      env.putIfAbsent(variable, null);
    }
    return Tools.run(file.getParent(), env, 60, List.of("docker-compose", "-f", file.toString(), "config"));
  }

  private static Map<String, Object> service(String name) {
    Object service = at(config, "services." + name);
    assertThat(service).as("the compose file's service " + name).isNotNull();
    return HelmChartTests.map(service);
  }

  @SuppressWarnings("unchecked")
  private static List<String> strings(Object node) {
    return (List<String>) node;
  }
}

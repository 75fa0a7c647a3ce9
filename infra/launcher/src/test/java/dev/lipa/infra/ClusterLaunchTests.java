package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What ./platform up --cluster starts and tells each process, with everything but the JVMs real: the brokers'
 * configuration, the replicas' command lines and environments, the mode left for status and down.
 */
class ClusterLaunchTests {

  @TempDir
  Path var;

  private Launcher.Result upCluster() throws Exception {
    Files.writeString(var.resolve("sandbox-credentials.json"), "{}");
    return Launcher.run(var, Map.of(), """
        find_java() { JAVA=true; JVM_COMMON=(); }
        needs_build() { return 1; }
        prepare_service() { :; }
        wait_for() { :; }
        launch() { printf 'launched %s | %s | %s %s %s\\n' "$1" "$*" "${COLLECTIONS_URI:-}" \\
          "${COLLECTIONS_INSTANCES:-}" "${GATEWAY_REPLICAS:-}"; }
        cmd_up --cluster
        printf 'components: %s\\n' "${CLUSTER_COMPONENTS[*]}"
        load_mode; printf 'mode %s brokers %s\\n' "$CLUSTER" "${BROKERS[*]}"
        """);
  }

  @Test
  void startsThreeBrokersTwoReplicasOfEveryServiceAndTwoGateways() throws Exception {
    Launcher.Result result = upCluster();

    assertThat(result.exitCode()).as(result.output()).isZero();
    List<String> launched = result.output().lines().filter(line -> line.startsWith("launched "))
        .map(line -> line.substring("launched ".length(), line.indexOf(" |"))).toList();
    assertThat(launched).containsExactlyInAnyOrder("kafka", "kafka-2", "kafka-3", "auth-service", "auth-service-2",
        "collections-service", "collections-service-2", "payouts-service", "payouts-service-2", "checkout-service",
        "checkout-service-2", "callback-dispatcher", "callback-dispatcher-2", "gateway", "gateway-2", "store");
    assertThat(result.output()).contains("mode 1 brokers kafka kafka-2 kafka-3");
  }

  @Test
  void theBrokersFormOneQuorumWithReplicationThreeAndNoAutomaticTopics() throws Exception {
    assertThat(upCluster().exitCode()).isZero();

    String second = Files.readString(var.resolve("kafka-cluster/kafka-2/server.properties"));
    assertThat(second).contains("node.id=2\n",
        "controller.quorum.voters=1@127.0.0.1:9093,2@127.0.0.1:9193,3@127.0.0.1:9293\n",
        "listeners=PLAINTEXT://127.0.0.1:9192,CONTROLLER://127.0.0.1:9193\n", "auto.create.topics.enable=false\n",
        "default.replication.factor=3\n", "min.insync.replicas=2\n", "offsets.topic.replication.factor=3\n",
        "unclean.leader.election.enable=false\n",
        "log.dirs=" + var.toRealPath().resolve("kafka-cluster/kafka-2/data") + "\n");
    assertThat(Files.readString(var.resolve("kafka-cluster/kafka/server.properties"))).contains("node.id=1\n");
    assertThat(var.resolve("kafka/server.properties")).as("the single broker's stays apart").doesNotExist();
  }

  @Test
  void eachGatewayBalancesEveryServiceOverBothReplicas() throws Exception {
    String output = upCluster().output();

    for (String gateway : List.of("gateway", "gateway-2")) {
      assertThat(output.lines().filter(line -> line.startsWith("launched " + gateway + " |")))
          .singleElement().asString()
          .endsWith("| lb://collections-service http://127.0.0.1:8083,http://127.0.0.1:8093 2");
    }
  }

  @Test
  void replicasKeepTheirStateApartAndReachEveryBroker() throws Exception {
    String second = upCluster().output().lines()
        .filter(line -> line.startsWith("launched payouts-service-2 |")).findFirst().orElseThrow();

    assertThat(second).contains("-Dlipa.component=payouts-service-2", "/app/payouts-service/app-2.jsa",
        "--server.port=8094", "--spring.kafka.bootstrap-servers=127.0.0.1:9092,127.0.0.1:9192,127.0.0.1:9292",
        "--lipa.security.jwks-uri=http://127.0.0.1:8091/.well-known/jwks.json")
        .endsWith("| http://127.0.0.1:8093  ");
  }
}

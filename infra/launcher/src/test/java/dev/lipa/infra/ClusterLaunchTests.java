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
    return upCluster(Map.of());
  }

  private Launcher.Result upCluster(Map<String, String> env) throws Exception {
    Files.writeString(var.resolve("sandbox-credentials.json"), "{}");
    return Launcher.run(var, env, """
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

    assertThat(second).contains("-Dlipa.component=payouts-service-2", "/payouts-service/target/app-",
        "--server.port=8094", "--spring.kafka.bootstrap-servers=127.0.0.1:9092,127.0.0.1:9192,127.0.0.1:9292",
        "--lipa.security.jwks-uri=http://127.0.0.1:8091/.well-known/jwks.json")
        .endsWith("| http://127.0.0.1:8093  ");
  }

  @Test
  void clusterServicesNamesTheServicesThatGetASecondReplicaAndTheRestRunOnce() throws Exception {
    Launcher.Result result = upCluster(Map.of("LIPA_CLUSTER_SERVICES", "collections-service callback-dispatcher"));

    assertThat(result.exitCode()).as(result.output()).isZero();
    List<String> launched = result.output().lines().filter(line -> line.startsWith("launched "))
        .map(line -> line.substring("launched ".length(), line.indexOf(" |"))).toList();
    assertThat(launched).containsExactlyInAnyOrder("store", "kafka", "kafka-2", "kafka-3", "auth-service",
        "collections-service", "collections-service-2", "payouts-service", "checkout-service", "callback-dispatcher",
        "callback-dispatcher-2", "gateway");
    // the one gateway balances collections over both replicas and enforces the whole request limit
    assertThat(result.output().lines().filter(line -> line.startsWith("launched gateway |"))).singleElement()
        .asString().endsWith("| lb://collections-service http://127.0.0.1:8083,http://127.0.0.1:8093 ");
    // a second replica reads the keys from the one auth-service there is
    assertThat(result.output().lines().filter(line -> line.startsWith("launched callback-dispatcher-2 |")))
        .singleElement().asString().contains("--lipa.security.jwks-uri=http://127.0.0.1:8081/.well-known/jwks.json");
    // kept for status and down, whatever their environment says
    assertThat(Files.readString(var.resolve("run/cluster"))).isEqualTo("collections-service callback-dispatcher");
    Launcher.Result status = Launcher.run(var, Map.of(), "load_mode; service_components | tr '\\n' ' '");
    assertThat(status.output()).isEqualTo("auth-service collections-service collections-service-2 payouts-service "
        + "checkout-service callback-dispatcher callback-dispatcher-2 gateway ");
  }

  @Test
  void clusterServicesRefusesANameThatIsNoService() throws Exception {
    Launcher.Result result = upCluster(Map.of("LIPA_CLUSTER_SERVICES", "collections-service ../../etc"));

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.output()).contains("LIPA_CLUSTER_SERVICES: '../../etc' is not one of");
    assertThat(result.output()).doesNotContain("launched ");
  }

  @Test
  void startStartsOneStoppedReplicaAsUpWouldAndNothingElse() throws Exception {
    assertThat(upCluster().exitCode()).isZero();
    String up = upCluster().output().lines().filter(line -> line.startsWith("launched collections-service-2 |"))
        .findFirst().orElseThrow();

    Launcher.Result start = Launcher.run(var, Map.of(), """
        find_java() { JAVA=true; JVM_COMMON=(); }
        prepare_service() { echo "unpacked $1"; }
        wait_for() { echo "waited for $1"; }
        running_pid() { [[ $1 == collections-service ]] && echo 4242; return 0; }
        LAUNCHER=$LIPA_VAR/built; mkdir -p "$LAUNCHER/lib" && touch "$LAUNCHER/launcher.jar"
        launch() { printf 'launched %s | %s | %s %s %s\\n' "$1" "$*" "${COLLECTIONS_URI:-}" \\
          "${COLLECTIONS_INSTANCES:-}" "${GATEWAY_REPLICAS:-}"; }
        load_mode; cmd_start collections-service-2
        """);

    assertThat(start.exitCode()).as(start.output()).isZero();
    assertThat(start.output().lines().filter(line -> line.startsWith("launched "))).containsExactly(up);
    assertThat(start.output()).contains("waited for collections-service-2");
  }

  @Test
  void startRefusesWhatIsNoComponentOfTheRun() throws Exception {
    assertThat(upCluster(Map.of("LIPA_CLUSTER_SERVICES", "collections-service")).exitCode()).isZero();

    assertThat(Launcher.run(var, Map.of(), "load_mode; service_components | tr '\\n' ' '").output())
        .as("what runs").contains("collections-service-2 ").doesNotContain("payouts-service-2");
    for (String name : List.of("payouts-service-2", "gateway-2", "../../bin/sh", "", "kafka-4")) {
      Launcher.Result start = Launcher.run(var, Map.of(), "launch() { echo launched; }; load_mode; cmd_start '" + name + "'");
      assertThat(start.exitCode()).as(name).isNotZero();
      assertThat(start.output()).as(name).contains("usage: ./platform start <component>").doesNotContain("launched");
    }
  }
}

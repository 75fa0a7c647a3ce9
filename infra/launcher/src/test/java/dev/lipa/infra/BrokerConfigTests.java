package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The server.properties ./platform up writes for its brokers, in both modes, with everything but the JVMs real: no
 * broker creates a topic of its own, so every topic is one topics.yaml declares (or the bench's, which it creates).
 */
class BrokerConfigTests {

  @TempDir
  Path var;

  @ParameterizedTest(name = "up {0}")
  @CsvSource({
      "'', kafka/server.properties, 1",
      "--cluster, kafka-cluster/kafka/server.properties, 3",
      "--cluster, kafka-cluster/kafka-3/server.properties, 3"})
  void noBrokerOfEitherModeCreatesTopicsAutomatically(String mode, String properties, int replication)
      throws Exception {
    Files.writeString(var.resolve("sandbox-credentials.json"), "{}");

    Launcher.Result result = Launcher.run(var, Map.of(), """
        find_java() { JAVA=true; JVM_COMMON=(); }
        needs_build() { return 1; }
        prepare_service() { :; }
        wait_for() { :; }
        launch() { :; }
        cmd_up %s
        """.formatted(mode));

    assertThat(result.exitCode()).as(result.output()).isZero();
    String written = Files.readString(var.resolve(properties));
    assertThat(written).contains("auto.create.topics.enable=false\n",
        "default.replication.factor=" + replication + "\n", "unclean.leader.election.enable=false\n");
    assertThat(written.lines().filter(line -> line.startsWith("auto.create.topics.enable="))).hasSize(1);
  }

  @Test
  void aFreshClustersThreeBrokersAreFormattedWithOneClusterIdMadeWithoutAJvm(@TempDir Path bin) throws Exception {
    Files.writeString(var.resolve("sandbox-credentials.json"), "{}");
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/usr/bin/env bash\necho \"$*\" >>\"" + bin.resolve("calls") + "\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));

    Launcher.Result result = Launcher.run(var, Map.of(), """
        find_java() { JAVA=%s; JVM_COMMON=(); }
        needs_build() { return 1; }
        prepare_service() { :; }
        wait_for() { :; }
        launch() { :; }
        cmd_up --cluster
        for i in $(seq 200); do echo "made $(new_cluster_id)"; done
        """.formatted(java));

    assertThat(result.exitCode()).as(result.output()).isZero();
    List<String> calls = Files.readAllLines(bin.resolve("calls"));
    assertThat(calls).as("no JVM asked for an id").noneMatch(call -> call.contains("random-uuid"));
    List<String> formats = calls.stream().filter(call -> call.contains("StorageTool format")).toList();
    String id = Files.readString(var.resolve("kafka-cluster/cluster-id")).strip();
    assertThat(id).matches("[A-Za-z0-9_][A-Za-z0-9_-]{21}");
    assertThat(formats).hasSize(3).allSatisfy(call -> assertThat(call).contains("-t " + id + " "));
    assertThat(formats).anySatisfy(call -> assertThat(call).contains("kafka-cluster/kafka-3/server.properties"));
    assertThat(result.output().lines().filter(line -> line.startsWith("made ")).map(line -> line.substring(5)))
        .as("a fresh id each time, Kafka's shape").hasSize(200)
        .allSatisfy(made -> assertThat(made).matches("[A-Za-z0-9_][A-Za-z0-9_-]{21}"))
        .doesNotHaveDuplicates();
  }
}

package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
}

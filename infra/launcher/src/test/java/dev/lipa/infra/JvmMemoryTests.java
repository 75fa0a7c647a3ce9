package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What ./platform up gives each JVM for its memory: heaps that start small and grow to what the process keeps live,
 * the serial collector for them and the parallel one for the on-disk store, the native heap trimmed where the JDK can,
 * and a broker's log cleaner sized to the local topics. Each of these is a measured part of the platform's resident memory (docs/performance.md); a JVM started
 * with its heap at -Xmx, or a broker with Kafka's 128 MB dedupe buffer, would quietly give it back.
 */
class JvmMemoryTests {

  private static final List<String> SERVICES = List.of("auth-service", "collections-service", "payouts-service",
      "checkout-service", "callback-dispatcher");

  @TempDir
  Path var;

  /** Every JVM ./platform up (single or cluster) launches, with its arguments, under a JDK of that major version. */
  private Map<String, List<String>> launched(String mode, int javaMajor) throws Exception {
    return launched(mode, javaMajor, Map.of());
  }

  private Map<String, List<String>> launched(String mode, int javaMajor, Map<String, String> env) throws Exception {
    Files.writeString(var.resolve("sandbox-credentials.json"), "{}");
    Launcher.Result result = Launcher.run(var, env, """
        find_java() { JAVA=true; JAVA_MAJOR=%d; jvm_common %d; }
        needs_build() { return 1; }
        prepare_service() { :; }
        wait_for() { :; }
        launch() { local name=$1; shift; printf 'launched %%s|%%s\\n' "$name" "$*"; }
        cmd_up %s
        """.formatted(javaMajor, javaMajor, mode));
    assertThat(result.exitCode()).as(result.output()).isZero();
    return result.output().lines().filter(line -> line.startsWith("launched "))
        .collect(Collectors.toMap(line -> line.substring("launched ".length(), line.indexOf('|')),
            line -> Arrays.asList(line.substring(line.indexOf('|') + 1).split(" "))));
  }

  @ParameterizedTest(name = "up {0}")
  @CsvSource({"''", "--cluster"})
  void everyServiceAndGatewayStartsItsHeapSmallWithTheSerialCollector(String mode) throws Exception {
    Map<String, List<String>> jvms = launched(mode, 25);

    List<String> serviceJvms = jvms.keySet().stream()
        .filter(name -> SERVICES.stream().anyMatch(name::startsWith) || name.startsWith("gateway")).toList();
    assertThat(serviceJvms).hasSize(mode.isEmpty() ? 6 : 12);
    for (String name : serviceJvms) {
      List<String> args = jvms.get(name);
      assertThat(args).as(name).contains("-XX:+UseSerialGC", "-Xms32m")
          .doesNotContain("-XX:+UseParallelGC", "-XX:+UseG1GC").contains("-Xmx256m");
      assertThat(args.stream().filter(arg -> arg.startsWith("-Xms"))).as(name).hasSize(1);
    }
  }

  @ParameterizedTest(name = "up {0}")
  @CsvSource({"''", "--cluster"})
  void brokersStartAt64MegabytesWithASmallDedupeBuffer(String mode) throws Exception {
    Map<String, List<String>> jvms = launched(mode, 25);

    List<String> brokers = jvms.keySet().stream().filter(name -> name.startsWith("kafka")).toList();
    assertThat(brokers).hasSize(mode.isEmpty() ? 1 : 3);
    brokers.forEach(broker -> assertThat(jvms.get(broker)).as(broker).contains("-Xms64m", "-Xmx512m"));
    Path properties = mode.isEmpty() ? var.resolve("kafka/server.properties")
        : var.resolve("kafka-cluster/kafka-3/server.properties");
    assertThat(Files.readString(properties)).contains("log.cleaner.dedupe.buffer.size=16777216\n");
  }

  @Test
  void theOnDiskStoreCollectsInParallelAndTheMemoryStoreSerially() throws Exception {
    assertThat(launched("", 25).get("store")).contains("-XX:+UseParallelGC", "-Xmx768m")
        .doesNotContain("-XX:+UseSerialGC");
    assertThat(launched("", 25, Map.of("LIPA_STORE_BACKEND", "memory")).get("store"))
        .contains("-XX:+UseSerialGC", "-Xmx3g", "--memory").doesNotContain("-XX:+UseParallelGC");
  }

  @Test
  void theNativeHeapIsTrimmedOnJdk22AndLaterAndTheFlagLeftOutBefore() throws Exception {
    Map<String, List<String>> on25 = launched("", 25);
    assertThat(on25).hasSizeGreaterThan(7).allSatisfy((name, args) -> assertThat(args).as(name)
        .contains("-XX:TrimNativeHeapInterval=10000", "-XX:+UseCompactObjectHeaders"));

    Map<String, List<String>> on22 = launched("", 22);
    assertThat(on22).allSatisfy((name, args) -> assertThat(args).as(name)
        .contains("-XX:TrimNativeHeapInterval=10000").doesNotContain("-XX:+UseCompactObjectHeaders"));

    // JDK 21 has the flag only as an experimental option in its later updates: an unknown -XX option stops a JVM
    Map<String, List<String>> on21 = launched("", 21);
    assertThat(on21).hasSizeGreaterThan(7).allSatisfy((name, args) -> assertThat(args).as(name)
        .noneMatch(arg -> arg.startsWith("-XX:TrimNativeHeapInterval")).doesNotContain("-XX:+UseCompactObjectHeaders"));
  }
}

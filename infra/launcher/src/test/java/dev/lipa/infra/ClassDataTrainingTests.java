package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data archive of a service is made once per build by a training start (its context refreshed, then exit)
 * and mapped read-only by every replica afterwards; no replica writes one when it stops. The JVM here is a script that
 * records its command line and writes the archive it is asked for.
 */
class ClassDataTrainingTests {

  @TempDir
  Path var;
  @TempDir
  Path build;
  private Path java;

  @BeforeEach
  void fakeJava() throws Exception {
    java = build.resolve("java");
    // a training start writes the archive named by -XX:ArchiveClassesAtExit=, unless FAIL_TRAINING is set
    Files.writeString(java, """
        #!/usr/bin/env bash
        echo "$*" >>"%s/java-calls"
        [[ -n ${FAIL_TRAINING:-} ]] && exit 1
        for a in "$@"; do
          case $a in -XX:ArchiveClassesAtExit=*) echo archive >"${a#-XX:ArchiveClassesAtExit=}" ;; esac
        done
        exit 0
        """.formatted(build));
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    Files.writeString(var.resolve("bank-partner-secret"), "secret");
  }

  private Launcher.Result run(Map<String, String> env, String script) throws Exception {
    return Launcher.run(var, env, """
        find_java() { JAVA=%1$s; JVM_COMMON=(); }
        find_java
        MONGO_URI=mongodb://127.0.0.1:1
        jar_of() { mkdir -p "%2$s/$1/target"; touch -d @1700000000 "%2$s/$1/target/$1.jar"; printf '%%s' "%2$s/$1/target/$1.jar"; }
        prepare_service() { mkdir -p "$(app_dir "$1")"; }
        %3$s
        """.formatted(java, build, script));
  }

  @Test
  void aTrainingStartWritesTheArchiveOnceAndEveryReplicaMapsIt() throws Exception {
    Launcher.Result first = run(Map.of(), "prepare_service collections-service; prepare_service payouts-service; "
        + "train_archives collections-service payouts-service; service_args collections-service-2 | tr '\\n' ' '");

    assertThat(first.exitCode()).as(first.output()).isZero();
    String calls = Files.readString(build.resolve("java-calls"));
    assertThat(calls.lines()).hasSize(2).allSatisfy(call -> assertThat(call)
        .contains("-Dspring.context.exit=onRefresh", "--server.port=0", "-XX:ArchiveClassesAtExit="));
    assertThat(build.resolve("collections-service/target/app-1700000000/app.jsa")).exists();
    assertThat(build.resolve("payouts-service/target/app-1700000000/app.jsa")).exists();
    assertThat(first.output())
        .contains("-XX:SharedArchiveFile=" + build + "/collections-service/target/app-1700000000/app.jsa")
        .doesNotContain("AutoCreateSharedArchive");

    Launcher.Result again = run(Map.of(), "train_archives collections-service payouts-service");
    assertThat(again.exitCode()).isZero();
    assertThat(Files.readString(build.resolve("java-calls")).lines()).as("no second training").hasSize(2);
  }

  @Test
  void aFailedTrainingLeavesNoArchiveAndTheServiceStartsWithoutOne() throws Exception {
    Launcher.Result result = run(Map.of("FAIL_TRAINING", "1"),
        "train_archives auth-service; service_args auth-service | tr '\\n' ' '");

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("auth-service: no class-data archive")
        .doesNotContain("-XX:SharedArchiveFile", "-XX:ArchiveClassesAtExit");
    assertThat(build.resolve("auth-service/target/app-1700000000/app.jsa")).doesNotExist();
    assertThat(build.resolve("auth-service/target/app-1700000000/app.jsa.tmp")).doesNotExist();
  }

  @Test
  void aTrainedGatewayListensOnNoPortAtAll() throws Exception {
    run(Map.of(), "train_archives gateway");

    assertThat(Files.readString(build.resolve("java-calls")))
        .contains("--server.port=0", "--management.server.port=0");
  }
}

package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every build of a service is unpacked into a directory of its own ({@code <service>/target/app-<jar time>/}, its
 * classes and its class-data archive); a new build's unpacking removes the older ones, except a directory a running
 * process still uses. The JVM here is a script that unpacks by making the directory.
 */
class BuildPruningTests {

  @TempDir
  Path var;
  @TempDir
  Path build;

  @Test
  void aNewBuildRemovesTheOlderBuildsExceptOneARunningProcessUses() throws Exception {
    Path java = build.resolve("java");
    Files.writeString(java, """
        #!/usr/bin/env bash
        while (( $# )); do [[ $1 == --destination ]] && mkdir -p "$2"; shift; done
        """);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    Path target = build.resolve("collections-service/target");
    Path unused = Files.createDirectories(target.resolve("app-100"));
    Path inUse = Files.createDirectories(target.resolve("app-200"));
    Path prefixOfInUse = Files.createDirectories(target.resolve("app-20"));
    Path archiveInUse = Files.createDirectories(target.resolve("app-300"));
    Path otherService = Files.createDirectories(build.resolve("payouts-service/target/app-100"));
    // a replica of an older build, as the launcher starts one: its jar and archive in that build's directory
    Process replica = new ProcessBuilder("bash", "-c", "sleep 60; :", "-jar", inUse.resolve("x.jar").toString(),
        "-XX:SharedArchiveFile=" + archiveInUse.resolve("app.jsa")).start();
    try {
      Launcher.Result result = Launcher.run(var, Map.of(), """
          find_java() { JAVA=%1$s; JVM_COMMON=(); }
          find_java
          jar_of() {
            mkdir -p "%2$s/$1/target"; touch -d @1700000000 "%2$s/$1/target/$1.jar"
            printf '%%s' "%2$s/$1/target/$1.jar"
          }
          prepare_service collections-service
          """.formatted(java, build));

      assertThat(result.exitCode()).as(result.output()).isZero();
      assertThat(target.resolve("app-1700000000/.unpacked")).exists();
      assertThat(unused).as("no process uses it").doesNotExist();
      assertThat(prefixOfInUse).as("only a prefix of a directory in use").doesNotExist();
      assertThat(inUse).as("a running replica's jar").exists();
      assertThat(archiveInUse).as("a running replica's archive").exists();
      assertThat(otherService).as("another service's build").exists();
    } finally {
      replica.destroy();
      replica.waitFor(10, TimeUnit.SECONDS);
    }
  }
}

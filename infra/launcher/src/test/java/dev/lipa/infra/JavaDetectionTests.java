package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How ./platform learns a JDK's major version: from the JDK's {@code release} file, without starting it (a JVM per
 * candidate at every command cost a second of a busy machine), and by asking the JVM only when there is no such file.
 * The JDKs here are directories with a script for {@code bin/java} that records being run.
 */
class JavaDetectionTests {

  @TempDir
  Path var;
  @TempDir
  Path jdks;

  private Path jdk(String name, String release, String properties) throws Exception {
    Path bin = Files.createDirectories(jdks.resolve(name).resolve("bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, """
        #!/usr/bin/env bash
        echo run >>"%s/ran-%s"
        printf '%%s\\n' "%s" >&2
        """.formatted(jdks, name, properties));
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    if (release != null) {
      Files.writeString(jdks.resolve(name).resolve("release"), release);
    }
    return java;
  }

  @Test
  void theReleaseFileIsReadWithoutStartingTheJvmAndAJdkWithoutOneIsAsked() throws Exception {
    Path withRelease = jdk("temurin-25", "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"25.0.3\"\n",
        "    java.specification.version = 99");
    Path old = jdk("jdk8", "JAVA_VERSION=\"1.8.0_402\"\n", "    java.specification.version = 1.8");
    Path withoutRelease = jdk("bare", null, "    java.specification.version = 21");
    Path link = jdks.resolve("java-on-path");
    Files.createSymbolicLink(link, withRelease);

    Launcher.Result result = Launcher.run(var, Map.of(), """
        for j in %s %s %s %s %s/missing/bin/java; do echo "major of $j: [$(java_major "$j")]"; done
        """.formatted(withRelease, link, old, withoutRelease, jdks));

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output().lines().filter(line -> line.startsWith("major of "))).containsExactly(
        "major of " + withRelease + ": [25]",
        "major of " + link + ": [25]",
        "major of " + old + ": [1]",
        "major of " + withoutRelease + ": [21]",
        "major of " + jdks + "/missing/bin/java: []");
    assertThat(jdks.resolve("ran-temurin-25")).as("read from its release file, never started").doesNotExist();
    assertThat(jdks.resolve("ran-jdk8")).doesNotExist();
    assertThat(jdks.resolve("ran-bare")).as("no release file: the JVM is asked").exists();
  }
}

package dev.lipa.infra.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.infra.deploy.Tools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The npm tools of the contract checks (Redocly CLI and the AsyncAPI parser), installed once under target/npm at the
 * versions the module's pom names; the repository's root, where the documents and redocly.yaml are. */
final class NpmTools {

  static final Path DIR = Path.of("target/npm").toAbsolutePath();

  private NpmTools() {
  }

  static Path root() {
    return Path.of(System.getProperty("lipa.root", "../..")).toAbsolutePath().normalize();
  }

  /** Installs the package at its version unless target/npm already has exactly that version. */
  static synchronized void install(String name, String version) {
    Tools.require("node", "apt-get install nodejs npm");
    Tools.require("npm", "apt-get install npm");
    try {
      Files.createDirectories(DIR);
      Path packageJson = DIR.resolve("node_modules").resolve(name).resolve("package.json");
      if (Files.isRegularFile(packageJson) && Files.readString(packageJson).contains("\"version\": \"" + version + "\"")) {
        return;
      }
      Tools.Result install = Tools.run(DIR, Map.of(), 600, List.of("npm", "install", "--no-audit", "--no-fund",
          "--loglevel=error", "--prefix", DIR.toString(), name + "@" + version));
      assertThat(install.status()).as("npm install %s@%s: %s", name, version, install.output()).isZero();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench reads the sandbox credentials ./platform up wrote, and says what to do when it cannot. */
class SandboxCredentialsTests {

  @TempDir
  Path var;

  @Test
  void readsTheFileAsTheSeederWritesIt() throws Exception {
    // the seeder's pretty-printed layout, the one the README shows
    Path file = Files.writeString(var.resolve("sandbox-credentials.json"), """
        {
          "gatewayUrl" : "http://localhost:8080",
          "organisationId" : "org_1",
          "apiKey" : "key",
          "apiSecret" : "secret"
        }
        """);

    assertThat(SandboxCredentials.read(file))
        .isEqualTo(new SandboxCredentials("http://localhost:8080", "org_1", "key", "secret"));
  }

  @Test
  void tellsToStartThePlatformWhenThereIsNoFile() {
    assertThatThrownBy(() -> SandboxCredentials.read(var.resolve("sandbox-credentials.json")))
        .isInstanceOf(PlatformDownException.class).hasMessageContaining("./platform up");
  }

  @Test
  void tellsToStartThePlatformAgainWhenTheFileLacksTheGatewayOrIsNotJson() throws Exception {
    Path incomplete = Files.writeString(var.resolve("incomplete.json"), "{\"apiKey\":\"key\",\"gatewayUrl\":\" \"}");
    Path broken = Files.writeString(var.resolve("broken.json"), "{\"apiKey\":");

    assertThatThrownBy(() -> SandboxCredentials.read(incomplete))
        .isInstanceOf(PlatformDownException.class).hasMessageContaining("lacks gatewayUrl or apiKey");
    assertThatThrownBy(() -> SandboxCredentials.read(broken))
        .isInstanceOf(PlatformDownException.class).hasMessageContaining("is not JSON");
  }
}

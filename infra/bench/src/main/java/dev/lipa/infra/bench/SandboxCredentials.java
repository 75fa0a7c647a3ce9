package dev.lipa.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The sandbox organisation {@code ./platform up} seeded, as it wrote it to {@code var/sandbox-credentials.json}. */
record SandboxCredentials(String gatewayUrl, String organisationId, String apiKey, String apiSecret) {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Reads the file; a missing or incomplete one means the platform was never started here. */
  static SandboxCredentials read(Path file) throws IOException {
    if (!Files.isReadable(file)) {
      throw new PlatformDownException("no credentials at " + file + "; start the platform first: ./platform up");
    }
    JsonNode credentials;
    try {
      credentials = JSON.readTree(Files.readString(file));
    } catch (JacksonException e) {
      throw new PlatformDownException(file + " is not JSON (" + e.getOriginalMessage() + "); run ./platform up again");
    }
    String gatewayUrl = credentials.path("gatewayUrl").asString();
    String apiKey = credentials.path("apiKey").asString();
    if (gatewayUrl.isBlank() || apiKey.isBlank()) {
      throw new PlatformDownException(file + " lacks gatewayUrl or apiKey; run ./platform up again");
    }
    return new SandboxCredentials(gatewayUrl, credentials.path("organisationId").asString(), apiKey,
        credentials.path("apiSecret").asString());
  }
}

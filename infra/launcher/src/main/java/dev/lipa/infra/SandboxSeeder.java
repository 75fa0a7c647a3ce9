package dev.lipa.infra;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes sure the local platform has a sandbox organisation with an API key, through the gateway and the operator
 * admin API, and writes its credentials to {@code var/sandbox-credentials.json}. Credentials that still buy a token
 * are kept, so {@code ./platform up} twice, or after {@code down}, seeds nothing new.
 *
 * <p>Usage: {@code SandboxSeeder <gatewayUrl> <operatorTokenFile> <credentialsFile>}.
 */
public final class SandboxSeeder {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  private SandboxSeeder() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: SandboxSeeder <gatewayUrl> <operatorTokenFile> <credentialsFile>");
      System.exit(2);
    }
    String gateway = args[0];
    String operatorToken = Files.readString(Path.of(args[1])).strip();
    Path credentials = Path.of(args[2]);

    if (Files.exists(credentials)) {
      JsonNode existing = JSON.readTree(Files.readString(credentials));
      ObjectNode ask = JSON.createObjectNode()
          .put("apiKey", existing.path("apiKey").asString())
          .put("apiSecret", existing.path("apiSecret").asString());
      Answer answer = post(gateway + "/api/v1/get-token", ask, Map.of());
      if (answer.status == 200) {
        if (!gateway.equals(existing.path("gatewayUrl").asString())) {
          write(credentials, gateway, existing.path("organisationId").asString(), existing.path("apiKey").asString(),
              existing.path("apiSecret").asString());
        }
        System.out.println("sandbox credentials still valid: " + credentials);
        return;
      }
      System.out.println("stored sandbox credentials no longer buy a token (" + answer.status + "); issuing new ones");
    }

    Map<String, String> operator = Map.of("X-Operator-Token", operatorToken);
    ObjectNode organisation = JSON.createObjectNode()
        .put("name", "Sandbox Merchant")
        .put("email", "sandbox@lipa.local")
        .put("phoneNumber", "254700000000");
    Answer created = post(gateway + "/admin/v1/organisations", organisation, operator);
    require(created, 201, "create the sandbox organisation");
    String organisationId = created.body.path("data").path("organisationId").asString();

    // a bank account of its own, so that sandbox bank deposits (/bank/collection/simulate) have somewhere to land;
    // random, because an account number belongs to one organisation only
    String account = String.valueOf(1_000_000_000L + RANDOM.nextLong(9_000_000_000L));
    ObjectNode profile = JSON.createObjectNode();
    profile.putArray("bankAccountNumbers").add(account);
    Answer patched = send("PATCH", gateway + "/admin/v1/organisations/" + organisationId, profile, operator);
    require(patched, 200, "give the sandbox organisation a bank account");
    Files.writeString(credentials.resolveSibling("sandbox-bank-account"), account + "\n");

    Answer key = post(gateway + "/admin/v1/organisations/" + organisationId + "/api-keys",
        JSON.createObjectNode(), operator);
    require(key, 201, "issue the sandbox API key");
    write(credentials, gateway, organisationId, key.body.path("data").path("apiKey").asString(),
        key.body.path("data").path("apiSecret").asString());
    System.out.println("sandbox organisation " + organisationId + " created; credentials in " + credentials);
  }

  private static void write(Path file, String gateway, String organisationId, String apiKey, String apiSecret)
      throws IOException {
    ObjectNode out = JSON.createObjectNode()
        .put("gatewayUrl", gateway)
        .put("organisationId", organisationId)
        .put("apiKey", apiKey)
        .put("apiSecret", apiSecret);
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out) + "\n");
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException ignored) {
      // not a POSIX file system: the folder's permissions apply
    }
    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static void require(Answer answer, int status, String what) {
    if (answer.status != status) {
      throw new IllegalStateException("could not " + what + ": HTTP " + answer.status + " " + answer.text);
    }
  }

  private static Answer post(String url, JsonNode body, Map<String, String> headers) throws Exception {
    return send("POST", url, body, headers);
  }

  private static Answer send(String method, String url, JsonNode body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    headers.forEach(request::header);
    Exception last = null;
    for (int attempt = 0; attempt < 20; attempt++) {
      try {
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 503 || response.statusCode() == 502) {
          Thread.sleep(500);
          continue;
        }
        JsonNode parsed = response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
        return new Answer(response.statusCode(), parsed, response.body());
      } catch (IOException | JacksonException e) {
        // not answering, or answering what is not JSON (a proxy's error page while the gateway starts): try again
        last = e;
        Thread.sleep(500);
      }
    }
    throw new IllegalStateException("the gateway did not answer at " + url, last);
  }

  private record Answer(int status, JsonNode body, String text) {
  }
}

package dev.lipa.infra.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.infra.deploy.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Both OpenAPI documents linted by Redocly CLI (npm @redocly/cli) with the repository's redocly.yaml: 0 errors. */
class RedoclyLintTests {

  private static Path redocly;

  @BeforeAll
  static void installRedocly() {
    NpmTools.install("@redocly/cli", System.getProperty("redocly-cli.version", "1.34.20"));
    redocly = NpmTools.DIR.resolve("node_modules/.bin/redocly");
  }

  @Test
  void thePublicDocumentHasNoLintError() {
    Tools.Result result = lint(NpmTools.root().resolve("docs/openapi.yaml"));

    assertThat(result.status()).as("redocly lint docs/openapi.yaml:\n%s", result.output()).isZero();
    assertThat(result.output()).contains("Woohoo! Your API description is valid.");
  }

  @Test
  void theOperatorDocumentHasNoLintError() {
    Tools.Result result = lint(NpmTools.root().resolve("docs/operator-openapi.yaml"));

    assertThat(result.status()).as("redocly lint docs/operator-openapi.yaml:\n%s", result.output()).isZero();
    assertThat(result.output()).contains("Woohoo! Your API description is valid.");
  }

  @Test
  void theLintRefusesWhatBrokeTheDocumentBefore() throws IOException {
    // the lint is not a formality: a flow mapping whose prose has a comma (the comma makes an extra key) and a
    // reference to a schema that does not exist, the two kinds of error docs/openapi.yaml had
    Path broken = Files.createTempFile(NpmTools.DIR, "broken", ".yaml");
    Files.writeString(broken, """
        openapi: 3.0.3
        info:
          title: broken
          version: 1.0.0
          license:
            name: Apache-2.0
            url: https://www.apache.org/licenses/LICENSE-2.0
        servers:
          - url: http://localhost:8080
        security: []
        paths:
          /things:
            get:
              operationId: listThings
              summary: Things
              parameters:
                - {name: from, in: query, description: inclusive, on the creation date, schema: {type: string}}
              responses:
                '200':
                  description: The things
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Missing'
                '400':
                  description: Bad
        """);
    try {
      Tools.Result result = lint(broken);

      assertThat(result.status()).as(result.output()).isNotZero();
      assertThat(result.output()).contains("on the creation date").contains("Missing");
    } finally {
      Files.deleteIfExists(broken);
    }
  }

  private static Tools.Result lint(Path document) {
    return Tools.run(NpmTools.root(), Map.of("REDOCLY_TELEMETRY", "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE", "true"),
        300, List.of(redocly.toString(), "lint", "--config", NpmTools.root().resolve("redocly.yaml").toString(),
            "--format", "codeframe", document.toString()));
  }
}

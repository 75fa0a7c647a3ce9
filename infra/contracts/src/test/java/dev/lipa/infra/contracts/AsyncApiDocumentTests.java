package dev.lipa.infra.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.infra.deploy.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** docs/asyncapi.yaml parsed by the official AsyncAPI parser (npm @asyncapi/parser) with 0 errors; the check itself
 * proven on a small valid and a small invalid document. */
class AsyncApiDocumentTests {

  private static Path script;

  @BeforeAll
  static void installParser() throws IOException {
    NpmTools.install("@asyncapi/parser", System.getProperty("asyncapi-parser.version", "3.6.6"));
    script = NpmTools.DIR.resolve("parse-asyncapi.mjs");
    Files.copy(Path.of("src/test/node/parse-asyncapi.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void theTopicsDocumentParsesWithoutError() {
    Tools.Result result = parse(NpmTools.root().resolve("docs/asyncapi.yaml"));

    assertThat(result.status()).as("the AsyncAPI parser on docs/asyncapi.yaml:\n%s", result.output()).isZero();
    assertThat(result.output()).contains("\"valid\":true");
  }

  @Test
  void aValidDocumentPasses() {
    Tools.Result result = parse(Path.of("src/test/resources/asyncapi/valid.yaml").toAbsolutePath());

    assertThat(result.status()).as(result.output()).isZero();
    assertThat(result.output()).contains("\"valid\":true", "\"errors\":[]");
  }

  @Test
  void anInvalidDocumentFailsNamingWhatIsWrong() {
    Tools.Result result = parse(Path.of("src/test/resources/asyncapi/invalid.yaml").toAbsolutePath());

    assertThat(result.status()).as(result.output()).isEqualTo(1);
    assertThat(result.output()).contains("\"valid\":false").contains("resultCode");
  }

  private static Tools.Result parse(Path document) {
    return Tools.run(NpmTools.DIR, Map.of(), 120, List.of("node", script.toString(), document.toString()));
  }
}

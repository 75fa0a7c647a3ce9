package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Pattern;
import tools.jackson.core.JsonPointer;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Pins an event a producer builds to a committed file of expected JSON ({@code src/test/resources/events/...}): the
 * same field names in the same order, the same JSON types and the same number text ({@code 99.50} is not {@code 99.5},
 * a string is not a number), and the event must also conform to the AsyncAPI document ({@link EventContracts}). Only
 * generated ids are not pinned: {@code eventId}, and the fields a test names by JSON pointer (a callbackId the code
 * draws at random); each must be a UUID, and the file says {@code "<eventId>"} or {@code "<uuid>"}.
 *
 * <p>A deliberate change of an event is a new expected file (and, if it is not compatible, a new {@code version}):
 * run the test once with {@code -Dlipa.events.repin=true} to write the files from what the code produces, then read
 * the diff before committing it.
 */
public final class PinnedEvents {

  private static final String EVENT_ID = "<eventId>";
  private static final String GENERATED = "<uuid>";
  private static final Pattern UUID = Pattern.compile(
      "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  // numbers keep their exact text (BigDecimal, trailing zeros kept, never in exponent form)
  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .build();

  private PinnedEvents() {
  }

  /**
   * Fails unless the record value {@code json} published on {@code topic} is the event of the test resource
   * {@code expected} (e.g. {@code events/stk.accepted.v1.json}) and conforms to the AsyncAPI document.
   *
   * @param generatedIds JSON pointers (e.g. {@code /data/callbackId}) of other UUIDs the code generates
   */
  public static void assertPinned(String topic, String json, String expected, String... generatedIds) {
    JsonNode actual = JSON.readTree(json);
    assertThat(actual.path("eventId").asString("")).as("eventId of %s", expected).matches(UUID);
    ((ObjectNode) actual).put("eventId", EVENT_ID);
    for (String pointer : generatedIds) {
      JsonPointer at = JsonPointer.compile(pointer);
      assertThat(actual.at(at).asString("")).as("%s of %s", pointer, expected).matches(UUID);
      ((ObjectNode) actual.at(at.head())).put(at.last().getMatchingProperty(), GENERATED);
    }
    String actualText = JSON.writeValueAsString(actual) + "\n";
    if (Boolean.getBoolean("lipa.events.repin")) {
      write(expected, actualText);
    } else {
      assertThat(actualText).as("the event pinned in %s", expected).isEqualTo(read(expected));
    }
    EventContracts.assertConforms(topic, json);
  }

  private static String read(String resource) {
    try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new AssertionError("no pinned event " + resource + " on the test class path (write it with "
            + "-Dlipa.events.repin=true, then review it)");
      }
      // the same canonical printing as the actual event, so only the content decides
      return JSON.writeValueAsString(JSON.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8))) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void write(String resource, String text) {
    Path file = Paths.get("src/test/resources").resolve(resource);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}

package dev.lipa.common.kafka;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** How a listener reads a record's JSON: text that does not parse is the record's fault, never retried. */
public final class RecordJson {

  private RecordJson() {
  }

  /** @throws UnprocessableRecordException when {@code value} is not JSON */
  public static JsonNode parse(JsonMapper json, String value) {
    try {
      return json.readTree(value);
    } catch (JacksonException e) {
      throw new UnprocessableRecordException("not JSON: " + e.getOriginalMessage(), e);
    }
  }
}

package dev.lipa.common.json;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The platform's JSON conventions in one place: decimals read as {@link java.math.BigDecimal} and written in plain
 * notation, duplicate keys refused (a body with two {@code amount}s is ambiguous), numbers that cannot be read made a
 * read error ({@link BoundedNumbersModule}) and every document held to {@link JsonLimits}. Spring's mapper gets them
 * from {@link JsonAutoConfiguration}; a mapper built by hand (a static helper, a test, a fuzzer) from
 * {@link #builder()}.
 */
public final class PlatformJson {

  private PlatformJson() {
  }

  /** A mapper builder with every convention and limit of the platform. */
  public static JsonMapper.Builder builder() {
    return conventions(JsonMapper.builder(JsonFactory.builder()
        .streamReadConstraints(JsonLimits.readConstraints()).build()));
  }

  /** Adds the conventions (not the limits, which belong to the factory) to a builder. */
  static JsonMapper.Builder conventions(JsonMapper.Builder builder) {
    return builder
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
        .addModule(new BoundedNumbersModule());
  }
}

package dev.lipa.common.json;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.DeserializationFeature;

/**
 * The platform's JSON conventions: decimals read as {@link java.math.BigDecimal}, written in plain notation, and
 * duplicate keys refused (a body with two {@code amount}s is ambiguous, so it is an error).
 */
@AutoConfiguration
public class JsonAutoConfiguration {

  @Bean
  JsonMapperBuilderCustomizer lipaJsonConventions() {
    return builder -> builder
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN);
  }
}

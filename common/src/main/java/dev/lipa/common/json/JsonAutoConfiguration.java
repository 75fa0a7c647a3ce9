package dev.lipa.common.json;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JsonFactoryBuilderCustomizer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import tools.jackson.core.json.JsonFactoryBuilder;

/** Gives Spring's {@code JsonMapper} the platform's conventions and limits ({@link PlatformJson}). */
@AutoConfiguration
public class JsonAutoConfiguration {

  @Bean
  JsonMapperBuilderCustomizer lipaJsonConventions() {
    return PlatformJson::conventions;
  }

  @Bean
  JsonFactoryBuilderCustomizer lipaJsonLimits() {
    return new Limits();
  }

  /** Runs after Boot's own factory customizer (order 0), which would otherwise put Jackson's defaults back. */
  static final class Limits implements JsonFactoryBuilderCustomizer, Ordered {

    @Override
    public void customize(JsonFactoryBuilder builder) {
      builder.streamReadConstraints(JsonLimits.readConstraints());
    }

    @Override
    public int getOrder() {
      return 1;
    }
  }
}

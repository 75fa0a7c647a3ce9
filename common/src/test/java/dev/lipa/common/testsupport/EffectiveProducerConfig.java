package dev.lipa.common.testsupport;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.core.ProducerFactory;

/**
 * A service's producer configuration as Kafka resolves it when it builds the producer ({@link ProducerConfig}: its
 * defaults and its post-processing, e.g. {@code acks=all} read as {@code -1}), from the factory the service's
 * {@code KafkaTemplate} uses.
 */
public final class EffectiveProducerConfig {

  private EffectiveProducerConfig() {
  }

  public static ProducerConfig of(ProducerFactory<?, ?> factory) {
    Map<String, Object> configs = new HashMap<>(factory.getConfigurationProperties());
    // serializers may be given to the factory as instances instead of settings; they do not matter here
    configs.putIfAbsent(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    configs.putIfAbsent(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    return new ProducerConfig(configs);
  }
}

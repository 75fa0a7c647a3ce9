package dev.lipa.auth;

import dev.lipa.common.events.Topics;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;

/**
 * What auth-service publishes: organisation profiles on {@value Topics#ORGANISATIONS}, through the outbox of the
 * organisations collection (common's outbox auto-configuration; the organisations package sees only the outbox,
 * never Kafka).
 */
@Configuration(proxyBeanMethods = false)
class EventsConfiguration {

  /**
   * The profiles topic is compacted by key (organisationId): it keeps the latest profile of every organisation for
   * ever, so a service that starts reading it from the earliest offset, at any time, rebuilds a complete copy.
   * Created here, by its producer, when missing; with {@code spring.kafka.admin.modify-topic-configs} an existing
   * topic (say, auto-created by an early consumer) is switched to compaction too. Partitions and replication come
   * from the broker's defaults (3 and 3 on the cluster).
   */
  @Bean
  NewTopic organisationsTopic() {
    return TopicBuilder.name(Topics.ORGANISATIONS).compact().build();
  }
}

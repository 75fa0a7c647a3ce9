package dev.lipa.common.production;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The thresholds of the {@link ProductionGuard} ({@code lipa.production-guard}) and the topics a service produces to
 * (the ones it consumes from, and their dead-letter topics, are read from its listeners).
 *
 * @param minReplicationFactor the least replication factor of every topic the service uses
 * @param minInsyncReplicas the least {@code min.insync.replicas} of every topic the service uses
 * @param producedTopics the topics the service's outbox publishes to
 * @param timeout how long the guard waits for the broker's answers before it refuses to start
 */
@ConfigurationProperties("lipa.production-guard")
public record ProductionGuardSettings(@DefaultValue("3") int minReplicationFactor,
    @DefaultValue("2") int minInsyncReplicas, @DefaultValue List<String> producedTopics,
    @DefaultValue("30s") Duration timeout) {
}

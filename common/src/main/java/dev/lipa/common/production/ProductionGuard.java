package dev.lipa.common.production;

import com.mongodb.WriteConcern;
import dev.lipa.common.kafka.DeadLetterTopics;
import dev.lipa.common.store.StoreWriteSafety;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.TopicPartitionOffset;

/**
 * Refuses to start a service run with the production profile on infrastructure that can lose an acknowledged
 * payment: a topic it produces to or consumes from (or a dead-letter topic of its consumers) with fewer replicas or a
 * lower {@code min.insync.replicas} than {@link ProductionGuardSettings} wants, a topic that does not exist, or a
 * store client whose write concern is not majority. Runs first of the service's lifecycle (before its listeners
 * consume and its web server listens); a refusal names every problem at once.
 */
public final class ProductionGuard implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ProductionGuard.class);

  private final ProductionGuardSettings settings;
  private final Map<String, Object> adminConfig;
  private final Supplier<Collection<MessageListenerContainer>> listeners;
  private final WriteConcern storeWriteConcern;
  private final boolean retryWrites;
  private volatile boolean running;

  /**
   * @param adminConfig the service's Kafka admin client configuration (bootstrap servers, security)
   * @param listeners the service's listener containers, read when the guard runs
   * @param storeWriteConcern the write concern of the service's database, null for a service without a store
   */
  public ProductionGuard(ProductionGuardSettings settings, Map<String, Object> adminConfig,
      Supplier<Collection<MessageListenerContainer>> listeners, WriteConcern storeWriteConcern, boolean retryWrites) {
    this.settings = settings;
    this.adminConfig = adminConfig;
    this.listeners = listeners;
    this.storeWriteConcern = storeWriteConcern;
    this.retryWrites = retryWrites;
  }

  @Override
  public void start() {
    List<String> problems = problems();
    if (!problems.isEmpty()) {
      throw new IllegalStateException("Refusing to start with the production profile: " + String.join("; ", problems)
          + ". (The local single-broker run does not use the production profile.)");
    }
    log.info("production guard passed: topics {} have replication >= {} and min.insync.replicas >= {}, store writes"
        + " are w=majority", topicsInUse(), settings.minReplicationFactor(), settings.minInsyncReplicas());
    running = true;
  }

  /** Everything that makes this service unsafe for production, empty when nothing does. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (storeWriteConcern != null) {
      StoreWriteSafety.weakness(storeWriteConcern, retryWrites).ifPresent(problems::add);
    }
    Set<String> topics = topicsInUse();
    if (!topics.isEmpty()) {
      for (TopicFacts facts : describe(topics)) {
        facts.shortfall(settings.minReplicationFactor(), settings.minInsyncReplicas()).ifPresent(problems::add);
      }
    }
    return problems;
  }

  /** The topics the service produces to, the ones its listeners read, and its listeners' dead-letter topics. */
  public Set<String> topicsInUse() {
    Set<String> topics = new TreeSet<>(settings.producedTopics());
    for (MessageListenerContainer container : listeners.get()) {
      List<String> read = new ArrayList<>();
      String[] named = container.getContainerProperties().getTopics();
      if (named != null) {
        read.addAll(List.of(named));
      }
      TopicPartitionOffset[] partitions = container.getContainerProperties().getTopicPartitions();
      if (partitions != null) {
        for (TopicPartitionOffset partition : partitions) {
          read.add(partition.getTopic());
        }
      }
      topics.addAll(read);
      String group = container.getGroupId();
      if (group != null) {
        read.forEach(topic -> topics.add(DeadLetterTopics.name(topic, group)));
      }
    }
    return topics;
  }

  private List<TopicFacts> describe(Set<String> topics) {
    Map<String, Object> config = new HashMap<>(adminConfig);
    int timeoutMs = (int) settings.timeout().toMillis();
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 10_000));
    try (Admin admin = Admin.create(config)) {
      Map<String, KafkaFuture<TopicDescription>> descriptions = admin.describeTopics(topics).topicNameValues();
      List<TopicFacts> facts = new ArrayList<>();
      List<ConfigResource> existing = new ArrayList<>();
      Map<String, Integer> replication = new HashMap<>();
      for (String topic : topics) {
        TopicDescription description = await(descriptions.get(topic), topic);
        if (description == null) {
          facts.add(TopicFacts.missing(topic));
          continue;
        }
        replication.put(topic, description.partitions().stream().mapToInt(p -> p.replicas().size()).min()
            .orElse(0));
        existing.add(new ConfigResource(ConfigResource.Type.TOPIC, topic));
      }
      if (!existing.isEmpty()) {
        Map<ConfigResource, Config> configs = admin.describeConfigs(existing).all()
            .get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        for (ConfigResource resource : existing) {
          String minIsr = configs.get(resource).get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value();
          facts.add(TopicFacts.of(resource.name(), replication.get(resource.name()), Integer.parseInt(minIsr)));
        }
      }
      return facts;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Refusing to start with the production profile: could not read the topics "
          + topics + " from Kafka within " + settings.timeout() + " (" + e + ")", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the topics from Kafka", e);
    }
  }

  /** The topic's description, null when the broker says it does not exist. */
  private TopicDescription await(KafkaFuture<TopicDescription> future, String topic)
      throws ExecutionException, TimeoutException, InterruptedException {
    try {
      return future.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return null;
      }
      throw e;
    }
  }

  @Override
  public void stop() {
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Before everything else that starts: listener containers, the web server, the outbox's workers. */
  @Override
  public int getPhase() {
    return Integer.MIN_VALUE;
  }
}

package dev.lipa.common.crypto;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Runs {@link SecretRewrap} over every {@link SealedRecords} bean of the service once it has started, and again every
 * {@code lipa.secrets.rewrap-interval}, so that after a new primary master key is configured everything moves under
 * it without anyone re-issuing a secret. A service without sealed records never reads its master keys here.
 */
public class SecretRewrapJob implements ApplicationListener<ApplicationReadyEvent>, DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(SecretRewrapJob.class);

  private final ObjectProvider<SealedRecords> records;
  private final ObjectProvider<SecretEnvelope> envelope;
  private final SecretsProperties properties;
  private volatile ScheduledExecutorService scheduler;

  public SecretRewrapJob(ObjectProvider<SealedRecords> records, ObjectProvider<SecretEnvelope> envelope,
      SecretsProperties properties) {
    this.records = records;
    this.envelope = envelope;
    this.properties = properties;
  }

  @Override
  public void onApplicationEvent(ApplicationReadyEvent event) {
    if (records.stream().findAny().isEmpty() || scheduler != null) {
      return;
    }
    // on every replica, no lease: each field is replaced by a compare-and-set on its old value, so replicas
    // re-wrapping at once agree on the outcome (docs/operations.md, kind b)
    scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("secret-rewrap")
        .factory());
    long every = properties.rewrapInterval().toMillis();
    scheduler.scheduleWithFixedDelay(this::runQuietly, 0, every, TimeUnit.MILLISECONDS);
  }

  /** One pass over every sealed collection of the service. */
  public List<SecretRewrap.Result> runOnce() {
    SecretRewrap rewrap = new SecretRewrap(envelope.getObject());
    List<SecretRewrap.Result> results = new ArrayList<>();
    records.orderedStream().forEach(r -> results.add(rewrap.run(r)));
    return results;
  }

  private void runQuietly() {
    try {
      runOnce();
    } catch (RuntimeException e) {
      // the store may be away for a moment; the next pass tries again, and old forms keep opening meanwhile
      log.warn("re-wrap of sealed secrets failed; trying again in {}: {}", properties.rewrapInterval(),
          e.toString());
    }
  }

  @Override
  public void destroy() {
    ScheduledExecutorService running = scheduler;
    if (running != null) {
      running.shutdownNow();
    }
  }
}

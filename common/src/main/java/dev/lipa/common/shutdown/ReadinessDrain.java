package dev.lipa.common.shutdown;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

/**
 * The first thing a stopping process does: its readiness goes down ({@code /actuator/health/readiness} answers 503
 * OUT_OF_SERVICE) while it keeps serving every request for the drain delay, so that the load balancers in front of it
 * (the gateways' health checks, a Kubernetes Service) stop sending before anything in it stops. Only then does the
 * shutdown go on: the Kafka listeners finish their records and commit, the web server's graceful shutdown waits for
 * the requests in flight, and the outbox flushes as its beans are destroyed.
 *
 * <p>Without it the web server stops accepting at the moment the process is told to stop, while the load balancers
 * still send it requests until their next check: on a pooled keep-alive connection such a request meets a closing
 * socket, and a POST that may have reached the service cannot be retried elsewhere.
 */
public final class ReadinessDrain
    implements SmartLifecycle, ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

  /**
   * Stopped first of every lifecycle: before the Kafka listener containers ({@code Integer.MAX_VALUE - 100}) and the
   * web server's graceful shutdown ({@code Integer.MAX_VALUE - 1024}).
   */
  public static final int PHASE = Integer.MAX_VALUE;
  private static final Logger log = LoggerFactory.getLogger(ReadinessDrain.class);

  private final ApplicationContext context;
  private final Duration delay;
  private volatile boolean running;
  private volatile boolean everReady;
  private volatile boolean stopped;

  public ReadinessDrain(ApplicationContext context, ShutdownSettings settings) {
    this.context = context;
    this.delay = settings.drainDelay();
  }

  @Override
  public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
    if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
      everReady = true;
    }
  }

  /**
   * Running; after a stop (a context stopped and started again rather than closed), ready again as it was before the
   * stop took its readiness down.
   */
  @Override
  public void start() {
    boolean readyBefore = stopped && everReady;
    stopped = false;
    running = true;
    if (readyBefore) {
      AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
    }
  }

  /**
   * Not stopped when the context is only paused (Spring's test framework pauses the cached contexts it is not using):
   * a pause is no shutdown, and taking readiness down then would leave a resumed process refusing traffic.
   */
  @Override
  public boolean isPauseable() {
    return false;
  }

  /**
   * Readiness down, then the drain delay, synchronously: the lifecycle processor stops the next phases only after
   * this returns, and a wait here is not cut short by {@code spring.lifecycle.timeout-per-shutdown-phase}.
   */
  @Override
  public void stop() {
    try {
      // Spring Boot's web application contexts publish this too as they begin to close; doing it here as well keeps
      // the order (readiness first) a property of this class, whatever context it runs in
      AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
      if (!everReady || delay.isZero()) {
        // never announced as ready (a start-up that failed): no load balancer is sending it anything
        return;
      }
      log.info("readiness is down; serving for {} ms more before stopping, so the load balancers stop sending first",
          delay.toMillis());
      Thread.sleep(delay);
      log.info("drain delay over; stopping");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      stopped = true;
      running = false;
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}

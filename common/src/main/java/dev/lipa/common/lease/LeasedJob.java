package dev.lipa.common.lease;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's side of a scheduled job run under a {@link Lease}: each run renews (or takes) the lease and runs the
 * job with it, which {@link Leases#check checks} it before each act; another replica's live lease skips the run. The
 * holder keeps the lease between runs (a run renews it for {@code duration}, which should span a few of the job's
 * intervals), so the job stays on one replica while that replica lives, and moves once its lease has expired.
 *
 * <p>The sweeps that act on a batch of records ({@link #forEachHeld}) and run on a timer of their own ({@link #every})
 * share all of this here: the lease, the fencing check before each act, the timer, and the release when closed.
 */
public final class LeasedJob implements AutoCloseable {

  /** How long {@link #release()} waits for the store. */
  static final Duration RELEASE_WAIT = Duration.ofSeconds(2);
  private static final Logger log = LoggerFactory.getLogger(LeasedJob.class);

  private final Leases leases;
  private final String name;
  private final Duration duration;
  private final String holder;
  private volatile Lease last;
  private ScheduledExecutorService timer;

  /** {@code name} is the lease's (one per job and service database); {@code duration} how long a grant lasts. */
  public LeasedJob(Leases leases, String name, Duration duration) {
    this.leases = leases;
    this.name = name;
    this.duration = duration;
    // one holder per job instance: two instances in one process are two holders, as two replicas would be
    this.holder = name + "@" + UUID.randomUUID();
  }

  /**
   * Runs {@code job} under the lease when this instance can hold it; empty when another holder's lease is live. A
   * job that loses the lease midway ({@link LeaseLostException} from its checks) ends its run with what it did.
   */
  public <T> Optional<T> runIfHolder(Function<Lease, T> job) {
    Optional<Lease> lease = leases.acquire(name, holder, duration);
    if (lease.isEmpty()) {
      return Optional.empty();
    }
    last = lease.get();
    try {
      return Optional.ofNullable(job.apply(lease.get()));
    } catch (LeaseLostException e) {
      log.warn("{}: stopped midway: {}", name, e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * Acts on each item of {@code batch} under the lease: when this instance can hold the lease it reads the batch and
   * makes the fencing check before each act. Returns how many acts it made; 0 when another holder's lease is live, or
   * when the lease was lost midway (the acts made before the loss stand; the new holder's run covers the rest).
   */
  public <T> int forEachHeld(Supplier<? extends Iterable<T>> batch, Consumer<? super T> act) {
    return runIfHolder(lease -> {
      int acted = 0;
      for (T item : batch.get()) {
        check(lease);
        act.accept(item);
        acted++;
      }
      return acted;
    }).orElse(0);
  }

  /**
   * Runs {@code run} (which calls {@link #forEachHeld} or {@link #runIfHolder}) every {@code interval}, the first time
   * one interval from now, on a daemon thread named after the lease, until {@link #close()}. A run that throws is
   * logged and the next one comes as planned: a store or rail that failed once is asked again at the next interval.
   */
  public synchronized void every(Duration interval, Runnable run) {
    if (timer != null) {
      throw new IllegalStateException(name + " runs on a timer already");
    }
    timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name(name).factory());
    long period = interval.toMillis();
    timer.scheduleWithFixedDelay(() -> {
      try {
        run.run();
      } catch (RuntimeException e) {
        log.warn("{} failed: {}", name, e.toString());
      }
    }, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Stops the timer of {@link #every} and then {@link #release() releases} the lease. A run under way is interrupted
   * and awaited (at most {@link #RELEASE_WAIT}) first: a run still renewing the lease after the release would hold it
   * again until it expired, and the next replica would wait for nothing.
   */
  @Override
  public synchronized void close() {
    if (timer != null) {
      timer.shutdownNow();
      try {
        timer.awaitTermination(RELEASE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      timer = null;
    }
    release();
  }

  /** The fencing check, for the job's acts. */
  public void check(Lease lease) {
    leases.check(lease);
  }

  /**
   * Gives the lease up (a clean stop), so another replica runs the job at once instead of after it expires. Waits for
   * the store at most {@link #RELEASE_WAIT}: at a shutdown whose store is already gone the driver would wait its whole
   * server selection (30 s), and an unreleased lease only expires a little later.
   */
  public void release() {
    Lease held = last;
    if (held == null) {
      return;
    }
    Thread releasing = Thread.ofVirtual().name("lease-release-" + name).start(() -> {
      try {
        leases.release(held);
      } catch (RuntimeException e) {
        log.debug("{}: releasing the lease failed, it expires by itself: {}", name, e.toString());
      }
    });
    try {
      releasing.join(RELEASE_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public String name() {
    return name;
  }

  public String holder() {
    return holder;
  }
}

package dev.lipa.common.lease;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's side of a scheduled job run under a {@link Lease}: each run renews (or takes) the lease and runs the
 * job with it, which {@link Leases#check checks} it before each act; another replica's live lease skips the run. The
 * holder keeps the lease between runs (a run renews it for {@code duration}, which should span a few of the job's
 * intervals), so the job stays on one replica while that replica lives, and moves once its lease has expired.
 */
public final class LeasedJob {

  /** How long {@link #release()} waits for the store. */
  static final Duration RELEASE_WAIT = Duration.ofSeconds(2);
  private static final Logger log = LoggerFactory.getLogger(LeasedJob.class);

  private final Leases leases;
  private final String name;
  private final Duration duration;
  private final String holder;
  private volatile Lease last;

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

package dev.lipa.infra.bench;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Readings of the platform's processes (var/run/*.pid) around a step: CPU ticks and JIT compile time, and the peak of
 * their resident memory, sampled on a thread of its own while it is open.
 */
final class ProcessSamples implements AutoCloseable {

  /** The names the bench's own process and the reference pipeline's have in the CPU readings. */
  static final String BENCH = "(the bench itself)";
  static final String REFERENCE = "(reference pipeline)";

  private final PlatformProbe probe;
  private final AtomicLong peakMemory = new AtomicLong();
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("bench-memory").factory());

  /** Starts sampling the platform's memory every 2 s. */
  ProcessSamples(PlatformProbe probe) {
    this.probe = probe;
    sampler.scheduleAtFixedRate(this::sampleMemory, 0, 2, TimeUnit.SECONDS);
  }

  /** The highest sum of the platform's resident memory sampled so far (since {@link #restartPeak}). */
  long peakMemory() {
    return peakMemory.get();
  }

  /** Forgets the peak so far: the next measured run's starts from now. */
  void restartPeak() {
    peakMemory.set(0);
    sampleMemory();
  }

  /** The compile time of the platform's JVMs so far. */
  JitTime.Snapshot jit() {
    try {
      return JitTime.take(probe.pids());
    } catch (IOException e) {
      return JitTime.take(Map.of());
    }
  }

  /** CPU ticks of the platform's processes, the bench itself and (when it runs) the reference pipeline. */
  ProcessCpu.Snapshot cpu(ReferenceProcess reference) {
    Map<String, Long> pids = new TreeMap<>();
    try {
      pids.putAll(probe.pids());
    } catch (IOException e) {
      // var/run unreadable: the bench's own figures still count
    }
    pids.put(BENCH, ProcessHandle.current().pid());
    if (reference != null) {
      pids.put(REFERENCE, reference.pid());
    }
    return ProcessCpu.take(pids);
  }

  /** The platform's resident memory now (PSS summed over its processes, bytes); 0 when it cannot be read. */
  long memoryNow() {
    try {
      return probe.residentMemory().values().stream().mapToLong(Long::longValue).sum();
    } catch (IOException e) {
      // a pid file being rewritten: the next sample counts
      return 0;
    }
  }

  private void sampleMemory() {
    peakMemory.accumulateAndGet(memoryNow(), Math::max);
  }

  @Override
  public void close() {
    sampler.shutdownNow();
  }
}

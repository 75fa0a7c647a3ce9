package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading CPU time from /proc: the parsers on fixed lines, and a real reading of this JVM doing work. */
class ProcessCpuTests {

  @Test
  void readsUserAndSystemTimeAfterACommandNameWithSpacesAndParentheses() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    String line = "4242 (java (C2) x) S 1 4242 4242 0 -1 4194560 9000 0 12 0 1234 567 0 0 20 0 40 0";

    assertThat(ProcessCpu.parseStat(line)).isEqualTo(1234 + 567);
  }

  @Test
  void countsIdleAndIowaitAsNotBusy() {
    long[] machine = ProcessCpu.parseMachine("cpu  100 5 50 1000 20 3 2 7 0 0");

    assertThat(machine[1]).isEqualTo(100 + 5 + 50 + 1000 + 20 + 3 + 2 + 7);
    assertThat(machine[0]).isEqualTo(100 + 5 + 50 + 3 + 2 + 7);
  }

  @Test
  void measuresTheCpuThisProcessSpendsPerPayment() {
    long pid = ProcessHandle.current().pid();
    ProcessCpu.Snapshot before = ProcessCpu.take(Map.of("me", pid, "gone", Long.MAX_VALUE));
    // spin until this thread itself has used 300 ms of CPU (wall time would depend on what else the machine runs)
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long until = threads.getCurrentThreadCpuTime() + 300_000_000L;
    long spin = 0;
    while (threads.getCurrentThreadCpuTime() < until) {
      spin += Long.numberOfTrailingZeros(spin + System.nanoTime());
    }
    ProcessCpu.Usage usage = ProcessCpu.take(Map.of("me", pid)).since(before);

    assertThat(spin).isPositive();
    assertThat(usage.ticks()).containsOnlyKeys("me"); // a process that does not exist is left out
    // 300 ms of CPU (the kernel counts in ticks of 10 ms): at least 25 ms for each of 10 payments
    assertThat(usage.millisPer("me", 10)).isGreaterThanOrEqualTo(25.0);
    assertThat(usage.totalMillisPer(10)).isEqualTo(usage.millisPer("me", 10));
    assertThat(usage.machineBusyShare()).isBetween(0.0, 1.0);
    assertThat(usage.millisPer("nobody", 10)).isNaN();
  }
}

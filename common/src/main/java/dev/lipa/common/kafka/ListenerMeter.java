package dev.lipa.common.kafka;

/**
 * Where listener failures are counted. Micrometer's counters when the service has a MeterRegistry
 * ({@link MicrometerListenerMeter}), nothing otherwise, so common does not need Micrometer.
 */
interface ListenerMeter {

  ListenerMeter NONE = new ListenerMeter() {
    @Override
    public void retried(String listener, String topic) {
    }

    @Override
    public void deadLettered(String listener, String topic) {
    }
  };

  /** A delivery failed for a reason not proven deterministic and will be retried. */
  void retried(String listener, String topic);

  /** A record was written to the listener's dead letters. */
  void deadLettered(String listener, String topic);
}

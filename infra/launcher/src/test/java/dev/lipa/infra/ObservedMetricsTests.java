package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** How the system test reads metric names out of PromQL and out of a Prometheus page. */
class ObservedMetricsTests {

  @Test
  void findsTheMetricNamesOfAnExpressionNotItsFunctionsLabelsOrDurations() {
    assertThat(ObservedMetrics.metricNames("histogram_quantile(0.95, sum by (kind, le) "
        + "(rate(lipa_payment_outcome_latency_seconds_bucket{kind=\"stk_push\"}[5m])))"))
        .containsExactly("lipa_payment_outcome_latency_seconds_bucket");
    assertThat(ObservedMetrics.metricNames("sum by (application) (rate(a_total{status=~\"5..\"}[5m])) "
        + "/ sum by (application) (rate(b_count[5m])) > 0.05 and on (application) up == 1"))
        .containsExactly("a_total", "b_count", "up");
    assertThat(ObservedMetrics.metricNames("max_over_time(lipa_outbox_oldest_age_seconds[2m]) > 1e3 unless bool x"))
        .containsExactly("lipa_outbox_oldest_age_seconds", "x");
  }

  @Test
  void readsTheNamesOfAPrometheusPage() {
    String page = "# HELP x_total a counter\n# TYPE x_total counter\nx_total{a=\"b c\"} 1.0\n"
        + "jvm_threads_live_threads 12\n\n";

    assertThat(ObservedMetrics.namesOffered(page)).containsExactly("jvm_threads_live_threads", "x_total");
  }

  @Test
  void theRulesAndTheDashboardAskForTheMetricsOfThePolicy() throws IOException {
    assertThat(ObservedMetrics.namesUsed()).contains("lipa_outbox_pending", "lipa_outbox_oldest_age_seconds",
        "kafka_consumer_fetch_manager_records_lag_max", "http_server_requests_seconds_count",
        "lipa_callbacks_dead_total", "lipa_dead_letters_waiting", "lipa_payments_total",
        "lipa_gateway_rate_limit_refusals_total", "lipa_payment_outcome_latency_seconds_bucket");
  }

  @Test
  void everySeriesLeftToTheLiveStackIsOneTheRulesUse() throws IOException {
    assertThat(ObservedMetrics.namesUsed()).containsAll(ObservedMetrics.LIVE_STACK_ONLY);
  }
}

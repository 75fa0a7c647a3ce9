package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bench's callback receiver: counters on paths of their own, signatures checked, answers read at once. */
class CallbackCounterTests {

  private CallbackCounter platform;

  @BeforeEach
  void start() throws Exception {
    platform = new CallbackCounter(0, "tests");
  }

  @AfterEach
  void stop() {
    platform.close();
  }

  @Test
  void aCounterAlongsideCountsItsOwnCallbacksAndChecksTheirSignatures() throws Exception {
    byte[] key = WebhookSigning.key(WebhookSigning.newSecret());
    CallbackCounter reference = platform.alongside("reference-1", key);
    String body = "{\"requestId\":\"r-1\",\"status\":\"SUCCESS\",\"amount\":10,\"phoneNumber\":\"254712345678\"}";
    long now = System.currentTimeMillis() / 1000;
    String signed = "webhook-id: cb-1\r\nwebhook-timestamp: " + now + "\r\nwebhook-signature: "
        + WebhookSigning.sign(key, "cb-1", now, body) + "\r\n";

    try (Http1Connection connection = new Http1Connection(StkRequests.address(URI.create(reference.url())), 2000)) {
      long started = System.nanoTime();
      // the receiver answers 204 without a Content-Length: read at once, not at the end of the connection
      assertThat(connection.exchange(StkRequests.post(URI.create(reference.url()), signed, body), 5000).status())
          .isEqualTo(204);
      assertThat((System.nanoTime() - started) / 1_000_000).as("ms for the answer").isLessThan(2000);
      connection.exchange(StkRequests.post(URI.create(reference.url()), "webhook-id: cb-1\r\n", body), 5000);
    }

    assertThat(reference.get("r-1").count).hasValue(2);
    assertThat(reference.get("r-1").webhookIds).containsExactly("cb-1");
    assertThat(reference.badSignatures()).isEqualTo(1);
    assertThat(platform.get("r-1")).as("the platform's counter").isNull();
    assertThat(platform.badSignatures()).isZero();
  }

  @Test
  void closingACounterAlongsideTakesOnlyItsPathAway() throws Exception {
    CallbackCounter reference = platform.alongside("reference-1", null);
    String url = reference.url();
    reference.close();

    try (Http1Connection connection = new Http1Connection(StkRequests.address(URI.create(url)), 2000)) {
      assertThat(connection.exchange(StkRequests.post(URI.create(platform.url()), "", "{\"requestId\":\"r-2\"}"),
          5000).status()).isEqualTo(204);
    }
    assertThat(platform.get("r-2").count).hasValue(1);
  }
}

package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The callbacks' Standard Webhooks signatures, as the callback dispatcher makes them. */
class WebhookSigningTests {

  @Test
  void signsAsTheStandardWebhooksTestVectorSays() {
    // the specification's example, which callback-dispatcher's WebhookSignatureTests pins too
    byte[] key = WebhookSigning.key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

    assertThat(WebhookSigning.sign(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}"))
        .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  @Test
  void verifiesOneOfSeveralSignaturesAndNothingElse() {
    byte[] key = WebhookSigning.key(WebhookSigning.newSecret());
    String signature = WebhookSigning.sign(key, "cb-1", 1700000000, "{\"requestId\":\"r\"}");

    assertThat(WebhookSigning.verify(key, "cb-1", "1700000000", "{\"requestId\":\"r\"}",
        "v1,b2xk " + signature)).isTrue();
    assertThat(WebhookSigning.verify(key, "cb-2", "1700000000", "{\"requestId\":\"r\"}", signature)).isFalse();
    assertThat(WebhookSigning.verify(key, "cb-1", "1700000001", "{\"requestId\":\"r\"}", signature)).isFalse();
    assertThat(WebhookSigning.verify(key, "cb-1", "1700000000", "{\"requestId\":\"x\"}", signature)).isFalse();
    assertThat(WebhookSigning.verify(key, "cb-1", "soon", "{\"requestId\":\"r\"}", signature)).isFalse();
    assertThat(WebhookSigning.verify(key, "cb-1", "1700000000", "{\"requestId\":\"r\"}", null)).isFalse();
  }
}

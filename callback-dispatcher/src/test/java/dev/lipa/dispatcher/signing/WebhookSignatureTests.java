package dev.lipa.dispatcher.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class WebhookSignatureTests {

  /** The README's test vector: merchants check their verification code against it. */
  static final String SECRET = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
  static final String ID = "0b9d1c3e-8f4a-4e6b-9c2d-7a1e5f3b8c90";
  static final long TIMESTAMP = 1768467600;
  static final String BODY = "{\"requestId\":\"5f0c6a36-3b7e-4a4e-9d0f-1f2f3a4b5c6d\",\"status\":\"SUCCESS\","
      + "\"amount\":100.50,\"phoneNumber\":\"254708374149\"}";
  static final String SIGNATURE = "v1,P2PM+yZm+udDw263/VebkbFMggrPjDshwPaJrcqQTL4=";

  @Test
  void signsTheReadmeTestVector() {
    assertThat(WebhookSignature.sign(WebhookSignature.key(SECRET), ID, TIMESTAMP, BODY)).isEqualTo(SIGNATURE);
  }

  @Test
  void matchesTheStandardWebhooksReferenceVector() {
    // the example of the Standard Webhooks specification: any of its verification libraries accepts our signatures
    String signature = WebhookSignature.sign(WebhookSignature.key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
        "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}");

    assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  @Test
  void changesWithEveryPartThatIsSigned() {
    byte[] key = WebhookSignature.key(SECRET);

    assertThat(WebhookSignature.sign(key, ID + "x", TIMESTAMP, BODY)).isNotEqualTo(SIGNATURE);
    assertThat(WebhookSignature.sign(key, ID, TIMESTAMP + 1, BODY)).isNotEqualTo(SIGNATURE);
    assertThat(WebhookSignature.sign(key, ID, TIMESTAMP, BODY.replace("100.50", "100.5"))).isNotEqualTo(SIGNATURE);
  }

  @Test
  void issuesSecretsOf32RandomBytesWithThePrefix() {
    String secret = WebhookSignature.newSecret(new SecureRandom());

    assertThat(secret).startsWith("whsec_");
    assertThat(Base64.getDecoder().decode(secret.substring(6))).hasSize(32);
    assertThat(WebhookSignature.newSecret(new SecureRandom())).isNotEqualTo(secret);
  }

  @Test
  void refusesASecretWithoutThePrefix() {
    assertThatThrownBy(() -> WebhookSignature.key("AAECAwQ=")).isInstanceOf(IllegalArgumentException.class);
  }
}

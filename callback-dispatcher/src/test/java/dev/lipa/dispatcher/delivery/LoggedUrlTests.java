package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What of a merchant's callback URL a log line may show. */
class LoggedUrlTests {

  @Test
  void dropsTheQueryTheFragmentAndTheUserInfoWhereAMerchantMayKeepASecret() {
    assertThat(LoggedUrl.of("https://alice:s3cret@shop.example:8443/hooks/lipa?token=abc123&x=1#frag"))
        .isEqualTo("https://shop.example:8443/hooks/lipa?…")
        .doesNotContain("abc123", "s3cret", "alice", "frag");
  }

  @Test
  void keepsWhatTellsAnOperatorWhereTheCallbackWent() {
    assertThat(LoggedUrl.of("http://127.0.0.1:9000/callbacks")).isEqualTo("http://127.0.0.1:9000/callbacks");
  }

  @Test
  void anUnreadableUrlIsNotLoggedAtAll() {
    assertThat(LoggedUrl.of("http://exa mple.com/?token=abc123")).isEqualTo("<unreadable url>");
    assertThat(LoggedUrl.of("not a url token=abc123")).isEqualTo("<unreadable url>");
  }
}

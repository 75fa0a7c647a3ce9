package dev.lipa.collections;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.lipa.common.testsupport.HostileAmounts.assertRefusedNaming;
import static org.junit.jupiter.api.Named.named;

import com.mongodb.client.model.Filters;
import dev.lipa.collections.stk.StkPushStore;
import dev.lipa.common.testsupport.HostileAmounts;
import dev.lipa.common.testsupport.TestHttp;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every number of this service's requests is bounded before any work (issue 12): the probe's {@code 1e100000000} and
 * its kin are 400s naming {@code amount} on every path that takes an amount, the fingerprint of an Idempotency-Key
 * never expands a number, and query parameters that would overflow are 400s naming them. None of these tests times
 * anything: each asserts the refusal and that nothing was written.
 */
class InputBoundsIntegrationTests extends CollectionsIntegrationTest {

  private static final String SIMULATE = "/api/sandbox/v1/bank/collection/simulate";
  private static final String BANK_ALL = "/api/sandbox/v1/bank/collection/all";
  private static final String NOTIFY = "/api/v1/banks/testbank/notifications";
  private static final String BANK_SECRET = "test-bank-shared-secret-0b7d41c9e2a84f6c";
  private static final String INTERNAL = "/internal/v1/stk-pushes";

  private static String stkBody(String amount) {
    return """
        {"description":"Order 42","phoneNumber":"0712345678","amount":%s,"accountReference":"INV42",
         "callbackUrl":"https://merchant.example/callbacks/stk"}""".formatted(amount);
  }

  private long pushesOf(String org) {
    return database.getCollection(StkPushStore.COLLECTION).countDocuments(Filters.eq("organisationId", org));
  }

  @Nested
  class StkPush {

    @ParameterizedTest(name = "refuses {0} naming amount")
    @MethodSource("dev.lipa.common.testsupport.HostileAmounts#all")
    void refusesAHostileAmountWith400NamingItAndStoresNothing(String amount) {
      String org = newOrganisation();
      Map<String, String> headers = new HashMap<>(as(org));
      headers.put("Idempotency-Key", "bounds-" + java.util.UUID.randomUUID());

      assertRefusedNaming(http().postJson(NEW, stkBody(amount), headers), "amount");
      assertThat(pushesOf(org)).isZero();
    }

    @Test
    void acceptsAHugeNumberInAnUnknownFieldAndFingerprintsItWithoutExpandingIt() {
      String org = newOrganisation();
      String body = stkBody("10").replace("{", "{\"x\":1e200000000,");
      Map<String, String> headers = new HashMap<>(as(org));
      headers.put("Idempotency-Key", "bounds-" + java.util.UUID.randomUUID());

      TestHttp.Response first = http().postJson(NEW, body, headers);
      TestHttp.Response retry = http().postJson(NEW, body.replace("1e200000000", "10e199999999"), headers);

      assertThat(first.status()).as(first.body()).isEqualTo(201);
      assertThat(retry.status()).as(retry.body()).isEqualTo(201);
      assertThat(retry.headers().firstValue("Idempotent-Replayed")).contains("true");
      assertThat(pushesOf(org)).isOne();
    }

    @Test
    void refusesABodyPastTheJsonLimitsWith400() {
      String org = newOrganisation();
      TestHttp.Response longNumber = http().postJson(NEW, stkBody("1".repeat(65)), as(org));
      TestHttp.Response deep = http().postJson(NEW, stkBody("10").replace("{", "{\"x\":" + "[".repeat(40)
          + "]".repeat(40) + ","), as(org));

      assertRefusedNaming(longNumber, "body");
      assertRefusedNaming(deep, "body");
      assertThat(pushesOf(org)).isZero();
    }

    @Test
    void refusesADuplicatedAmountNamingIt() {
      assertRefusedNaming(http().postJson(NEW, stkBody("10").replace("{", "{\"amount\":1e100000000,"),
          as(newOrganisation())), "amount");
    }
  }

  @Nested
  class InternalStkPush {

    @ParameterizedTest(name = "refuses {0} naming amount")
    @MethodSource("dev.lipa.common.testsupport.HostileAmounts#all")
    void refusesAHostileAmountFromCheckoutToo(String amount) {
      String org = newOrganisation();
      String body = """
          {"organisationId":"%s","phoneNumber":"0712345678","amount":%s,"currencyCode":"KSH","description":"Order",
           "accountReference":"AbC123xyz789","referenceId":"chk_bounds_1"}""".formatted(org, amount);

      assertRefusedNaming(http().postJson(INTERNAL, body, Map.of("X-Internal-Token", "internal-test-token")),
          "amount");
      assertThat(pushesOf(org)).isZero();
    }
  }

  @Nested
  class BankDeposits {

    static Stream<Arguments> hostileBankAmounts() {
      return Stream.concat(HostileAmounts.all(), Stream.of(
          Arguments.of(named("an exponent in a decimal string", "\"1e100000000\"")),
          Arguments.of(named("three decimals", "1.005")),
          Arguments.of(named("above the maximum", "10000000000000"))));
    }

    @ParameterizedTest(name = "refuses {0} naming amount")
    @MethodSource("hostileBankAmounts")
    void refusesAHostileSandboxDepositAmount(String amount) {
      String body = "{\"accountnumber\":\"1234567890\",\"amount\":" + amount + "}";

      assertRefusedNaming(http().postJson(SIMULATE, body, as(newOrganisation())), "amount");
    }

    @ParameterizedTest(name = "refuses {0} naming amount")
    @MethodSource("hostileBankAmounts")
    void refusesAHostileAmountInASignedPartnerNotification(String amount) {
      String body = """
          {"transactionref":"FT-BOUNDS","accountnumber":"1234567890","amount":%s,"transactiondate":"2025-06-01"}"""
          .formatted(amount);

      assertRefusedNaming(http().postJson(NOTIFY, body, Map.of("X-Lipa-Signature", signature(body))), "amount");
    }

    private static String signature(String body) {
      try {
        long t = Instant.now().getEpochSecond();
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(BANK_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal((t + "." + body)
            .getBytes(StandardCharsets.UTF_8)));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Nested
  class ListParameters {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("a page beyond a long", ALL + "?page=99999999999999999999"), "page"),
          Arguments.of(named("a negative page", ALL + "?page=-1"), "page"),
          Arguments.of(named("a size in scientific notation", ALL + "?size=1e9"), "size"),
          Arguments.of(named("a page times size beyond a skip", ALL + "?page=2147483647&size=500"), "page"),
          Arguments.of(named("a from date-time in the year 999999999", ALL + "?from=%2B999999999-12-31T00:00:00"),
              "from"),
          Arguments.of(named("a to date-time with a year of six digits", ALL + "?to=%2B100000-01-01T00:00:00Z"), "to"),
          Arguments.of(named("a bank page beyond a long", BANK_ALL + "?page=99999999999999999999"), "page"),
          Arguments.of(named("a bank size in scientific notation", BANK_ALL + "?size=1e9"), "size"),
          Arguments.of(named("a bank from in the year 999999999", BANK_ALL + "?from=%2B999999999-12-31"), "from"),
          Arguments.of(named("a bank to in the year 999999999", BANK_ALL + "?to=%2B999999999-12-31"), "to"));
    }

    @ParameterizedTest(name = "refuses {0} naming it")
    @MethodSource("refused")
    void refusesAValueThatWouldOverflowWith400NamingTheParameter(String path, String parameter) {
      assertRefusedNaming(http().get(path, as(newOrganisation())), parameter);
    }
  }
}

package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Card payments through the hosted checkout, end to end at this service: checkout.succeeded published on the real
 * broker as checkout-service publishes it, the balance read back through the API.
 *
 * <p>"Nothing more happened" is proved without waiting on a clock: after a repeat, a marker payment of another
 * organisation goes out under the same record key, so it shares the repeat's partition and is credited after it.
 */
class CheckoutCreditsIntegrationTests extends PayoutsIntegrationTest {

  @Autowired
  LedgerStore ledgerStore;

  /** checkout.succeeded as checkout-service writes it (see PaymentFlowIntegrationTests, which pins it). */
  private static String succeeded(String eventId, String org, String sessionId, String amount, String currency,
      String method) {
    return """
        {"eventId":"%s","type":"checkout.succeeded","version":1,"occurredAt":"2026-03-01T09:00:05.123456Z",\
        "organisationId":"%s","data":{"checkoutSessionId":"%s","checkoutRef":"cs_%s","status":"SUCCEEDED",\
        "amount":%s,"currency":"%s","externalReference":"ORD-42","paymentReference":"PAY-42",\
        "attempt":{"number":1,"paymentMethod":"%s","status":"SUCCEEDED","cardBrand":"VISA","cardLast4":"4242",\
        "stkRequestId":null,"reason":null}}}""".formatted(eventId, org, sessionId, sessionId, amount, currency,
        method);
  }

  @org.springframework.beans.factory.annotation.Autowired
  dev.lipa.common.kafka.DeadLetterStore deadLetters;

  private static void publish(String key, String... values) {
    publishTo(Topics.CHECKOUT, key, values);
  }

  private static void publishTo(String topic, String key, String... values) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
      for (String value : values) {
        producer.send(new ProducerRecord<>(topic, key, value)).get();
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Publishes a card payment of a fresh organisation under {@code key} and waits until it is credited. */
  private void markerAfter(String key) {
    String marker = newOrganisation();
    publish(key, succeeded(UUID.randomUUID().toString(), marker, UUID.randomUUID().toString(), "1", "USD", "CARD"));
    await(() -> balance(marker, "USD")[0].compareTo(BigDecimal.ONE) == 0);
  }

  private long creditsOf(String org, Currency currency) {
    return ledgerStore.entries(OrganisationId.of(org), currency).stream()
        .filter(e -> e.kind() == MovementKind.CREDIT).count();
  }

  @Nested
  class CardPayments {

    @Test
    void aCardPaymentCreditsTheMerchantOnceHoweverOftenItsEventArrives() {
      String org = newOrganisation();
      String session = UUID.randomUUID().toString();
      String event = succeeded(UUID.randomUUID().toString(), org, session, "1500.50", "KES", "CARD");

      publish(session, event);
      await(() -> balance(org, "KSH")[0].compareTo(new BigDecimal("2500.50")) == 0);
      // redelivered as it was, then republished by the outbox sweeper under a new eventId
      publish(session, event, succeeded(UUID.randomUUID().toString(), org, session, "1500.50", "KES", "CARD"));
      markerAfter(session);

      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("2500.50");
      assertThat(creditsOf(org, Currency.KSH)).isEqualTo(1);
      assertThat(ledgerStore.entries(OrganisationId.of(org), Currency.KSH))
          .filteredOn(e -> e.kind() == MovementKind.CREDIT)
          .extracting(LedgerEntry::requestId).containsExactly("checkout.succeeded:" + session);
    }

    @Test
    void aUsdCardPaymentCreditsTheUsdAccountWhichIsListedButCannotBePaidOut() {
      String org = newOrganisation();
      String session = UUID.randomUUID().toString();

      publish(session, succeeded(UUID.randomUUID().toString(), org, session, "25.99", "USD", "CARD"));
      await(() -> balance(org, "USD")[0].compareTo(new BigDecimal("25.99")) == 0);

      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("1000");
      var payout = http().postJson(SEND_MONEY, kenyan("254712345678", 20).replace("{", "{\"currencyCode\":\"USD\","),
          as(org));
      assertThat(payout.status()).isEqualTo(400);
      assertThat(payout.json().get("errors").get("currencyCode").get(0).stringValue())
          .isEqualTo("currencyCode must be one of KSH, TZS, UGX");
      assertThat(balance(org, "USD")[0]).isEqualByComparingTo("25.99");
      assertThat(balance(org, "USD")[1]).isEqualByComparingTo("0");
    }

    @Test
    void anMpesaCheckoutPaymentIsNotCreditedASecondTimeFromTheCheckoutEvent() {
      String org = newOrganisation();
      String session = UUID.randomUUID().toString();

      publish(session, succeeded(UUID.randomUUID().toString(), org, session, "700", "KES", "MPESA_STK"));
      markerAfter(session);

      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("1000");
      assertThat(creditsOf(org, Currency.KSH)).isZero();
    }

    /**
     * A late payment: the customer approved the prompt after the session expired. The push's stk.succeeded credits it
     * (as every M-Pesa payment), however often it arrives; checkout's checkout.late_payment tells the merchant and
     * credits nothing.
     */
    @Test
    void aLatePaymentIsCreditedOnceFromItsPushAndNeverFromItsCheckoutEvent() {
      String org = newOrganisation();
      String session = UUID.randomUUID().toString();
      String push = UUID.randomUUID().toString();
      String paid = """
          {"eventId":"%s","type":"stk.succeeded","version":1,"occurredAt":"2026-03-01T09:35:41.900Z",\
          "organisationId":"%s","data":{"requestId":"%s","referenceId":"chk_%s_1","phoneNumber":"254712345678",\
          "amount":1500,"currency":"KSH","status":"SUCCESS","resultCode":0,\
          "resultDescription":"The service request is processed successfully.","receipt":null}}"""
          .formatted(UUID.randomUUID(), org, push, session);
      String late = """
          {"eventId":"%s","type":"checkout.late_payment","version":1,"occurredAt":"2026-03-01T09:35:42.123Z",\
          "organisationId":"%s","data":{"checkoutSessionId":"%s","checkoutRef":"cs_%s","status":"EXPIRED",\
          "amount":1500,"currency":"KES","externalReference":"ORD-42","paymentReference":null,\
          "attempt":{"number":1,"paymentMethod":"MPESA_STK","status":"FAILED","cardBrand":null,"cardLast4":null,\
          "stkRequestId":"%s","reason":"the checkout session expired"},\
          "latePayment":{"attempt":1,"stkRequestId":"%s","amount":1500,"currency":"KES","receipt":null,\
          "recordedAt":"2026-03-01T09:35:42.123Z"}}}""".formatted(UUID.randomUUID(), org, session, session, push,
          push);

      publishTo(Topics.COLLECTIONS, push, paid, paid);
      publish(session, late, late);
      markerAfter(session);
      // a payment of another organisation under the push's key: credited after the repeat of the push's own
      String marker = newOrganisation();
      publishTo(Topics.COLLECTIONS, push, paid.replace(org, marker).replace(push, UUID.randomUUID().toString()));
      await(() -> balance(marker, "KSH")[0].compareTo(new BigDecimal("2500")) == 0);

      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("2500");
      assertThat(ledgerStore.entries(OrganisationId.of(org), Currency.KSH))
          .filteredOn(e -> e.kind() == MovementKind.CREDIT)
          .extracting(LedgerEntry::requestId).containsExactly("stk.succeeded:" + push);
    }

    @Test
    void anUncreditableRecordGoesToTheDeadLettersAndTheRestOfItsBatchIsCredited() {
      String org = newOrganisation();
      String session = UUID.randomUUID().toString();
      String euros = succeeded(UUID.randomUUID().toString(), org, session, "10", "EUR", "CARD");

      publish(session, "not json", euros, succeeded(UUID.randomUUID().toString(), org, session, "12", "KSH", "CARD"));

      await(() -> balance(org, "KSH")[0].compareTo(new BigDecimal("1012")) == 0);
      assertThat(creditsOf(org, Currency.KSH)).isEqualTo(1);
      await(() -> deadLetters.list(null, CheckoutCredits.GROUP, 0, 500).stream()
          .filter(letter -> letter.key() != null && letter.key().equals(session)).count() == 2);
    }
  }
}

package dev.lipa.infra;

import dev.lipa.daraja.simulator.DarajaSimulator;
import dev.lipa.daraja.simulator.TestCertificate;
import dev.lipa.rails.daraja.credential.SecurityCredentials;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Points the live stack of {@code ./platform up --daraja-simulator} at the Daraja simulator: through the gateway and
 * the live operator API, the simulator's shortcode becomes the active STK shortcode (a paybill) and serves B2C and B2B
 * payouts, with the simulator's app credentials, passkey and initiator, and a security credential made from the
 * initiator's password with the simulator's test certificate (the way an operator makes one with Safaricom's). A PUT
 * each: running it again changes nothing.
 *
 * <p>Usage: {@code DarajaSimulatorSeeder <gatewayUrl> <operatorTokenFile>}.
 */
public final class DarajaSimulatorSeeder {

  static final String STK_SHORTCODES = "/admin/live/v1/daraja/stk-shortcodes/";
  static final String PAYOUT_SHORTCODES = "/admin/live/v1/daraja/payout-shortcodes/";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  private DarajaSimulatorSeeder() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: DarajaSimulatorSeeder <gatewayUrl> <operatorTokenFile>");
      System.exit(2);
    }
    String operatorToken = Files.readString(Path.of(args[1])).strip();
    seed(args[0], operatorToken);
    System.out.println("the live stack's STK, B2C and B2B shortcode is the simulator's " + DarajaSimulator.SHORTCODE);
  }

  static void seed(String gateway, String operatorToken) throws IOException, InterruptedException {
    ObjectNode stk = JSON.createObjectNode()
        .put("transactionType", "paybill")
        .put("consumerKey", DarajaSimulator.CONSUMER_KEY)
        .put("consumerSecret", DarajaSimulator.CONSUMER_SECRET)
        .put("passkey", DarajaSimulator.PASSKEY)
        .put("active", true);
    put(gateway + STK_SHORTCODES + DarajaSimulator.SHORTCODE, stk, operatorToken);

    String credential = SecurityCredentials.encrypt(DarajaSimulator.INITIATOR_PASSWORD.toCharArray(),
        TestCertificate.load().certificate());
    // an app of its own for payouts, as in production: a token generated for an app invalidates its earlier ones,
    // so collections and payouts on one app would refuse each other's requests (docs/going-live.md, "The access token")
    ObjectNode payouts = JSON.createObjectNode()
        .put("consumerKey", DarajaSimulator.PAYOUTS_CONSUMER_KEY)
        .put("consumerSecret", DarajaSimulator.PAYOUTS_CONSUMER_SECRET)
        .put("initiatorName", DarajaSimulator.INITIATOR)
        .put("securityCredential", credential);
    payouts.putArray("products").add("b2c").add("b2b");
    put(gateway + PAYOUT_SHORTCODES + DarajaSimulator.SHORTCODE, payouts, operatorToken);
  }

  private static void put(String url, ObjectNode body, String operatorToken) throws IOException, InterruptedException {
    HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .header("X-Operator-Token", operatorToken)
        .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
        .build(), HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200 && answer.statusCode() != 201) {
      // the answer names fields, never a secret: the shortcode API shows only whether a secret is set
      throw new IllegalStateException("PUT " + URI.create(url).getPath() + " answered " + answer.statusCode() + ": "
          + answer.body());
    }
  }
}

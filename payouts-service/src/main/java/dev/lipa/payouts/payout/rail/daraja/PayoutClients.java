package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.rails.daraja.DarajaClient;
import dev.lipa.rails.daraja.DarajaClients;
import dev.lipa.rails.daraja.DarajaConfig;
import java.net.URI;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The Daraja client of a payout shortcode, for whatever asks Daraja with it (payouts, Transaction Status, Account
 * Balance): every answer of that shortcode comes to its own ResultURL ({@code /daraja/v1/results/<segment>}) and
 * QueueTimeOutURL. One client per shortcode, replaced when the shortcode changes ({@link DarajaClients}).
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class PayoutClients {

  private static final String BASE = "/daraja/v1/";

  private final DarajaClients clients;
  private final DarajaPayoutsProperties properties;

  PayoutClients(DarajaClients clients, DarajaPayoutsProperties properties) {
    this.clients = clients;
    this.properties = properties;
  }

  /** Whether Daraja can be told where to answer: without the platform's public address nothing is sent. */
  boolean canAsk() {
    return properties.callbackBaseUrl() != null;
  }

  DarajaClient of(PayoutShortcodes.Opened shortcode) {
    return clients.client(shortcode.shortcode(), shortcode.version(), () -> new DarajaConfig(properties.baseUrl(),
        shortcode.consumerKey(), shortcode.consumerSecret(), shortcode.shortcode(), null, shortcode.initiatorName(),
        shortcode.securityCredential(), null,
        URI.create(DarajaClients.join(properties.callbackBaseUrl(), BASE + "results/" + shortcode.callbackSegment())),
        URI.create(DarajaClients.join(properties.callbackBaseUrl(), BASE + "timeouts/" + shortcode.callbackSegment())),
        properties.connectTimeout(), properties.requestTimeout(), null));
  }
}

package dev.lipa.infra.bench;

import java.net.URI;
import java.util.Map;

/** The send-money (B2C) requests of {@code ./platform chaos}: KSH 10 to a Kenyan number each, through a gateway. */
final class PayoutRequests {

  private static final String SEND_MONEY_PATH = "/api/sandbox/v1/send-money";
  /** Numbers 254711000000 to 254711999999 in turn: none is a magic number of the sandbox's payout rail. */
  private static final long FIRST_PHONE = 254_711_000_000L;
  private static final int PHONES = 1_000_000;

  private PayoutRequests() {
  }

  /** Payouts through the gateway at {@code gatewayUrl}; the request id of each 201 goes into {@code accepted}. */
  static OpenLoad.Target platform(String gatewayUrl, TokenPool tokens, String callbackUrl,
      Map<String, Integer> accepted, int tag) {
    URI uri = URI.create(gatewayUrl + SEND_MONEY_PATH);
    return StkRequests.throughGateway(uri, accepted, sequence -> StkRequests.post(uri,
        "Authorization: Bearer " + tokens.next() + "\r\n",
        "{\"phoneNumber\":\"" + (FIRST_PHONE + Math.floorMod(sequence * 2 + tag, PHONES)) + "\",\"amount\":10,"
            + "\"remarks\":\"chaos\",\"occasion\":\"chaos\",\"callbackUrl\":\"" + callbackUrl + "\"}"));
  }
}

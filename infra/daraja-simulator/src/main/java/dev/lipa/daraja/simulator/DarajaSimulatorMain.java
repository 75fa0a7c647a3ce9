package dev.lipa.daraja.simulator;

import java.util.concurrent.CountDownLatch;

/**
 * Runs the Daraja simulator as a process ({@code --port N}, default 8099) until it is stopped, for local demos and the
 * launcher. Prints what a client needs: the base address, the app's key and secret, the shortcode and passkey, the
 * initiator, and the test certificate to make a security credential with.
 */
public final class DarajaSimulatorMain {

  private DarajaSimulatorMain() {
  }

  public static void main(String[] args) throws Exception {
    DarajaSimulator simulator;
    try {
      simulator = start(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      simulator.close();
      stopped.countDown();
    }, "daraja-simulator-stop"));
    System.out.println("Daraja simulator (TEST ONLY) on " + simulator.baseUrl());
    System.out.println("consumer key " + DarajaSimulator.CONSUMER_KEY + ", secret " + DarajaSimulator.CONSUMER_SECRET
        + " (a second app for payouts: " + DarajaSimulator.PAYOUTS_CONSUMER_KEY + ", "
        + DarajaSimulator.PAYOUTS_CONSUMER_SECRET + ")");
    System.out.println("shortcode " + DarajaSimulator.SHORTCODE + ", passkey " + DarajaSimulator.PASSKEY);
    System.out.println("initiator " + DarajaSimulator.INITIATOR + ", password " + DarajaSimulator.INITIATOR_PASSWORD
        + " (encrypt it with the certificate below)");
    System.out.println(simulator.certificate().certificatePem());
    stopped.await();
  }

  /** Starts a simulator as the command line says ({@code --port N} or {@code --port=N}; 8099 by default). */
  static DarajaSimulator start(String[] args) throws java.io.IOException {
    int port = 8099;
    for (int i = 0; i < args.length; i++) {
      String value = null;
      if (args[i].equals("--port") && i + 1 < args.length) {
        value = args[++i];
      } else if (args[i].startsWith("--port=")) {
        value = args[i].substring("--port=".length());
      }
      if (value == null || !value.matches("[0-9]{1,5}") || Integer.parseInt(value) > 65535) {
        throw new IllegalArgumentException("usage: DarajaSimulatorMain [--port N]");
      }
      port = Integer.parseInt(value);
    }
    return DarajaSimulator.start(port);
  }
}

package dev.lipa.payouts;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Send money, till and paybill payouts, balances and de-allocations. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PayoutsServiceApplication {

  public static void main(String[] args) {
    SpringApplication.run(PayoutsServiceApplication.class, args);
  }
}

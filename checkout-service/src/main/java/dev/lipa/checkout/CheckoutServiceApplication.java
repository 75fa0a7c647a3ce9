package dev.lipa.checkout;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Hosted checkout sessions, their lifecycle and the page customers pay on. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class CheckoutServiceApplication {

  public static void main(String[] args) {
    SpringApplication.run(CheckoutServiceApplication.class, args);
  }
}

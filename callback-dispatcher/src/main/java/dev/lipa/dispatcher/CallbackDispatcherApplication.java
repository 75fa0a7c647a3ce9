package dev.lipa.dispatcher;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Delivers every callback the platform owes a merchant, durably retried and logged. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class CallbackDispatcherApplication {

  public static void main(String[] args) {
    SpringApplication.run(CallbackDispatcherApplication.class, args);
  }
}

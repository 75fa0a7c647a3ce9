package dev.lipa.collections;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** STK push and bank collections, TZ collection lookups and the sandbox collection rails. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class CollectionsServiceApplication {

  public static void main(String[] args) {
    SpringApplication.run(CollectionsServiceApplication.class, args);
  }
}

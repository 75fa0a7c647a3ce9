package dev.lipa.auth;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Organisations, API keys, token issuance and refresh, signing keys and JWKS, the operator admin API. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AuthServiceApplication {

  public static void main(String[] args) {
    SpringApplication.run(AuthServiceApplication.class, args);
  }
}

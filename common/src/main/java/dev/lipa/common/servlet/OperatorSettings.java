package dev.lipa.common.servlet;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operator API's settings in every service ({@code lipa.operator.*}; environment {@code LIPA_OPERATOR_TOKEN},
 * {@code LIPA_OPERATOR_PORT}, {@code LIPA_OPERATOR_ADDRESS}).
 *
 * @param token the platform team's credential for {@code /admin/**}; blank keeps the operator API closed (503)
 * @param port a separate listener for {@code /admin/**} (then not served on the main port); unset: the main port
 * @param address the operator listener's bind address; unset: the service's own bind address
 */
@ConfigurationProperties("lipa.operator")
public record OperatorSettings(String token, Integer port, String address) {

  public OperatorSettings {
    token = token == null || token.isBlank() ? null : token;
    address = address == null || address.isBlank() ? null : address.strip();
    if (port != null && (port < 0 || port > 65535)) {
      throw new IllegalArgumentException("lipa.operator.port must be a TCP port, was " + port);
    }
  }
}

package dev.lipa.common.servlet;

import dev.lipa.common.security.OperatorTokens;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operator API's settings in every service ({@code lipa.operator.*}; environment {@code LIPA_OPERATOR_TOKEN},
 * {@code LIPA_OPERATOR_TOKENS_<NAME>}, {@code LIPA_OPERATOR_PORT}, {@code LIPA_OPERATOR_ADDRESS}).
 *
 * @param token the platform team's shared credential for {@code /admin/**}, audited as the operator
 *     {@value OperatorTokens#DEFAULT_NAME}
 * @param tokens named credentials, one per person or system ({@code lipa.operator.tokens.<name>}), audited by name;
 *     with neither these nor {@code token} the operator API stays closed (503)
 * @param port a separate listener for {@code /admin/**} (then not served on the main port); unset: the main port
 * @param address the operator listener's bind address; unset: the service's own bind address
 */
@ConfigurationProperties("lipa.operator")
public record OperatorSettings(String token, Map<String, String> tokens, Integer port, String address) {

  public OperatorSettings {
    token = token == null || token.isBlank() ? null : token;
    tokens = tokens == null ? Map.of() : Map.copyOf(tokens);
    address = address == null || address.isBlank() ? null : address.strip();
    if (port != null && (port < 0 || port > 65535)) {
      throw new IllegalArgumentException("lipa.operator.port must be a TCP port, was " + port);
    }
    OperatorTokens.of(token, tokens); // refuses unusable names and shared tokens at start-up
  }

  /** The credentials of these settings, by name. */
  public OperatorTokens operatorTokens() {
    return OperatorTokens.of(token, tokens);
  }
}

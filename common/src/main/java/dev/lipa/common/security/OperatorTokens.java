package dev.lipa.common.security;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The platform team's credentials for the operator API, each with a name, so that an audit record says who called:
 * {@code lipa.operator.token} is the name {@value #DEFAULT_NAME}, {@code lipa.operator.tokens.<name>} adds one per
 * person or system. A presented token is compared with every configured one in constant time (see
 * {@link SecretHeader}), all of them every time, so timing says neither which one matched nor how many there are.
 */
public final class OperatorTokens {

  /** The name of the single shared token, {@code lipa.operator.token}. */
  public static final String DEFAULT_NAME = "operator";
  /** What an audit record says of a caller without a valid token. */
  public static final String UNAUTHENTICATED = "unauthenticated";
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

  private final List<Named> tokens;

  private OperatorTokens(List<Named> tokens) {
    this.tokens = List.copyOf(tokens);
  }

  /**
   * The tokens of the settings: {@code token} (blank: none) as {@value #DEFAULT_NAME}, and {@code named} by name.
   *
   * @throws IllegalArgumentException for a name that is not lower-case letters, digits, {@code .}, {@code _} and
   *     {@code -} (at most 64), for {@value #UNAUTHENTICATED} or {@value #DEFAULT_NAME} given twice, and for one token
   *     under two names (the audit could not tell them apart)
   */
  public static OperatorTokens of(String token, Map<String, String> named) {
    Map<String, String> all = new LinkedHashMap<>();
    if (token != null && !token.isBlank()) {
      all.put(DEFAULT_NAME, token);
    }
    if (named != null) {
      for (Map.Entry<String, String> entry : named.entrySet()) {
        String name = entry.getKey() == null ? "" : entry.getKey().strip();
        if (!NAME.matcher(name).matches() || name.equals(UNAUTHENTICATED)) {
          throw new IllegalArgumentException("lipa.operator.tokens: '" + name + "' is not a usable operator name "
              + "(lower-case letters, digits, '.', '_' and '-', at most 64, not '" + UNAUTHENTICATED + "')");
        }
        if (entry.getValue() == null || entry.getValue().isBlank()) {
          continue; // an emptied entry switches that operator off
        }
        if (all.putIfAbsent(name, entry.getValue()) != null) {
          throw new IllegalArgumentException("lipa.operator.tokens." + name + " and lipa.operator.token both name '"
              + name + "'");
        }
      }
    }
    Set<String> values = new HashSet<>();
    List<Named> tokens = new ArrayList<>();
    for (Map.Entry<String, String> entry : all.entrySet()) {
      if (!values.add(entry.getValue())) {
        throw new IllegalArgumentException("operator " + entry.getKey() + " has another operator's token");
      }
      tokens.add(new Named(entry.getKey(), new SecretHeader(entry.getValue()), entry.getValue().length()));
    }
    return new OperatorTokens(tokens);
  }

  /** The single shared token alone (blank: none). */
  public static OperatorTokens single(String token) {
    return of(token, Map.of());
  }

  /** Whether any token is configured; without one the operator API stays closed (503). */
  public boolean configured() {
    return !tokens.isEmpty();
  }

  /** The names configured, in no particular order of importance. */
  public List<String> names() {
    return tokens.stream().map(Named::name).toList();
  }

  /** The names whose token is shorter than {@code length} characters, for a start-up warning. */
  public List<String> shorterThan(int length) {
    return tokens.stream().filter(t -> t.length() < length).map(Named::name).toList();
  }

  /** The operator whose token this is; empty for a missing or unknown token. */
  public Optional<String> identify(String presented) {
    if (presented == null) {
      return Optional.empty();
    }
    String match = null;
    for (Named token : tokens) {
      if (token.secret().matches(presented) && match == null) {
        match = token.name();
      }
    }
    return Optional.ofNullable(match);
  }

  private record Named(String name, SecretHeader secret, int length) {
  }
}

package dev.lipa.checkout.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/** The spec's checkout error body: a summary and a map from field (or header) name to messages; never an envelope. */
@JsonPropertyOrder({"message", "errors"})
public record CheckoutError(String message, Map<String, List<String>> errors) {

  public static CheckoutError of(String message) {
    return new CheckoutError(message, Map.of());
  }
}

package dev.lipa.checkout.session.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;
import java.util.List;

/** The spec's retrieve response, exactly its fields; absent optional values are null (never left out). */
@JsonPropertyOrder({"id", "amount", "currency", "description", "customerEmail", "customerMsisdn", "externalRef",
    "paymentMethods", "merchantDisplayName", "merchantLogoUrl", "status"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record SessionView(String id, BigDecimal amount, String currency, String description, String customerEmail,
    String customerMsisdn, String externalRef, List<String> paymentMethods, String merchantDisplayName,
    String merchantLogoUrl, String status) {
}

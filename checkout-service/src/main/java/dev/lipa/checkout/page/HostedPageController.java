package dev.lipa.checkout.page;

import dev.lipa.checkout.CheckoutProperties;
import dev.lipa.checkout.session.CheckoutSession;
import dev.lipa.checkout.session.CheckoutSessions;
import dev.lipa.checkout.web.Branding;
import dev.lipa.common.environment.StackEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.util.HtmlUtils;

/**
 * The hosted checkout page at {@code /checkout/{checkoutRef}} (through the gateway's /checkout/** route, or
 * /live/checkout/** for a live service; no merchant credential) and its two static assets. The HTML is rendered here with every value HTML-escaped; the script then
 * drives payment through {@link PageApiController}.
 */
@Controller
class HostedPageController {

  private static final MediaType HTML = new MediaType("text", "html", StandardCharsets.UTF_8);
  private static final Map<String, MediaType> ASSETS = Map.of(
      "checkout.js", new MediaType("text", "javascript", StandardCharsets.UTF_8),
      "checkout.css", new MediaType("text", "css", StandardCharsets.UTF_8));

  private static final Pattern CARD_PARTS = Pattern.compile("<!--card-->.*?<!--/card-->", Pattern.DOTALL);

  private final CheckoutSessions sessions;
  private final Branding branding;
  private final String page;
  private final String notFound;

  /**
   * A live page has no card tab, form or authentication step at all: no card processor is connected yet, so no card
   * number is collected (docs/going-live.md).
   */
  HostedPageController(CheckoutSessions sessions, Branding branding, CheckoutProperties properties,
      StackEnvironment stack) {
    this.sessions = sessions;
    this.branding = branding;
    String template = resource("checkout/page.html");
    if (stack.isLive()) {
      template = CARD_PARTS.matcher(template).replaceAll("");
    }
    this.page = template.replace("{{pagePath}}", properties.pagePath());
    this.notFound = resource("checkout/not-found.html").replace("{{pagePath}}", properties.pagePath());
  }

  @GetMapping("/checkout/{checkoutRef}")
  ResponseEntity<String> page(@PathVariable String checkoutRef) {
    Optional<CheckoutSession> found = sessions.findByRef(checkoutRef);
    if (found.isEmpty()) {
      return ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(HTML).body(notFound);
    }
    CheckoutSession session = found.get();
    CheckoutSession.Details d = session.details();
    Branding.Merchant merchant = branding.of(d.organisationId());
    String name = merchant.displayName() == null ? "Merchant" : merchant.displayName();
    String logo = merchant.logoUrl() == null ? ""
        : "<img class=\"logo\" src=\"" + esc(merchant.logoUrl()) + "\" alt=\"\">";
    String html = page
        .replace("{{merchantName}}", esc(name))
        .replace("{{logo}}", logo)
        .replace("{{amount}}", esc(formatAmount(d.amount(), d.checkoutCurrency().decimals())))
        .replace("{{currency}}", esc(d.currency()))
        .replace("{{description}}", esc(d.description()))
        .replace("{{methods}}", esc(String.join(" ", d.paymentMethods().stream().map(Enum::name).toList())))
        .replace("{{status}}", esc(session.status().name()))
        .replace("{{phone}}", esc(d.customerPhone() == null ? "" : d.customerPhone()))
        .replace("{{cancelUrl}}", esc(d.cancelUrl()));
    return ResponseEntity.ok().contentType(HTML).body(html);
  }

  @GetMapping("/checkout/assets/{name:checkout\\.(?:js|css)}")
  ResponseEntity<String> asset(@PathVariable String name) {
    return ResponseEntity.ok().contentType(ASSETS.get(name)).body(resource("checkout/" + name));
  }

  static String formatAmount(BigDecimal amount, int decimals) {
    DecimalFormat format = new DecimalFormat(decimals == 0 ? "#,##0" : "#,##0.00",
        DecimalFormatSymbols.getInstance(Locale.ROOT));
    return format.format(amount);
  }

  private static String esc(String text) {
    return HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
  }

  private static String resource(String path) {
    try (InputStream in = new ClassPathResource(path).getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package dev.lipa.checkout.page;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Security headers of the hosted page and its API: scripts and styles only from this origin (no inline code), no
 * framing (clickjacking), no referrer (the URL carries the session's reference), no caching, no MIME sniffing.
 * Merchant logos may come from any http(s) origin.
 */
class PageSecurityHeadersFilter extends OncePerRequestFilter {

  static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' https: http: data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; "
      + "base-uri 'none'";

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    response.setHeader("Referrer-Policy", "no-referrer");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    chain.doFilter(request, response);
  }
}

package dev.lipa.common.servlet;

import dev.lipa.common.paths.PathRules;
import jakarta.servlet.http.HttpServletRequest;

/** The path a servlet request is routed by, the only form a filter may decide access on (see {@link PathRules}). */
public final class RequestPaths {

  private RequestPaths() {
  }

  /** The decoded, normalised path within the application, never the raw request URI. */
  public static String routed(HttpServletRequest request) {
    String uri = request.getRequestURI();
    String context = request.getContextPath();
    return PathRules.routed(context != null && !context.isEmpty() && uri.startsWith(context)
        ? uri.substring(context.length()) : uri);
  }

  /** The path as it was sent (without the context path), for {@link PathRules#oddity}. */
  static String raw(HttpServletRequest request) {
    String uri = request.getRequestURI();
    String context = request.getContextPath();
    return context != null && !context.isEmpty() && uri.startsWith(context) ? uri.substring(context.length()) : uri;
  }
}

package dev.lipa.dispatcher.delivery;

import java.net.URI;

/**
 * A callback URL as the log shows it: scheme, host, port and path, without the query, the fragment or user info,
 * where a merchant may have put a secret of its own ({@code ?token=...}). The delivery log keeps the full URL for the
 * merchant; a log line never does.
 */
public final class LoggedUrl {

  private LoggedUrl() {
  }

  /** The URL without what may hold a secret; an unreadable one as {@code <unreadable url>}. */
  public static String of(String url) {
    try {
      URI uri = URI.create(url);
      if (uri.getScheme() == null || uri.getHost() == null) {
        return "<unreadable url>";
      }
      String query = uri.getRawQuery() == null ? "" : "?…";
      return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
          + (uri.getRawPath() == null ? "" : uri.getRawPath()) + query;
    } catch (IllegalArgumentException e) {
      return "<unreadable url>";
    }
  }
}

package dev.lipa.common.servlet;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.VerifiedToken;
import jakarta.servlet.http.HttpServletRequest;

/** The verified caller of the current request, as the {@link BearerTokenFilter} left it. */
public final class Caller {

  static final String ATTRIBUTE = Caller.class.getName();

  private Caller() {
  }

  /** Leaves the verified token on the request for the handlers; only a filter that verified it calls this. */
  public static void attach(HttpServletRequest request, VerifiedToken token) {
    request.setAttribute(ATTRIBUTE, token);
  }

  /** The organisation in the verified token: the only identity every query is scoped by. */
  public static OrganisationId organisation(HttpServletRequest request) {
    return token(request).organisation();
  }

  public static VerifiedToken token(HttpServletRequest request) {
    Object token = request.getAttribute(ATTRIBUTE);
    if (token instanceof VerifiedToken verified) {
      return verified;
    }
    throw new InvalidTokenException("no verified token on this request");
  }
}

package dev.lipa.checkout.session.web;

import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.callbacks.RefusedCallbackUrl;
import dev.lipa.common.callbacks.RefusedDestination;
import dev.lipa.common.web.ValidationException;
import java.net.URI;
import java.net.UnknownHostException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The SSRF check of a merchant's callbackUrl at acceptance, with common's {@link CallbackUrlGuard} (the auto-configured
 * bean, or one built from {@code lipa.callbacks.allow-private-targets}): loopback, private and metadata addresses are
 * refused as a field error; a name that does not resolve now is accepted (the dispatcher checks again when sending).
 */
@Component
class CallbackUrls {

  private final CallbackUrlGuard guard;

  CallbackUrls(ObjectProvider<CallbackUrlGuard> guard,
      @Value("${" + CallbackUrlGuard.ALLOW_PRIVATE_TARGETS + ":false}") boolean allowPrivateTargets) {
    this.guard = guard.getIfAvailable(() -> new CallbackUrlGuard(allowPrivateTargets));
  }

  void requireAcceptable(String field, String url) {
    try {
      URI uri = guard.form(url);
      guard.resolve(uri.getHost());
    } catch (RefusedCallbackUrl | RefusedDestination e) {
      throw ValidationException.of(field, e.getMessage());
    } catch (UnknownHostException e) {
      // may resolve later; the dispatcher resolves and checks again before it connects
    }
  }
}

package dev.lipa.common.callbacks;

/**
 * A callback URL refused when a request is accepted; its message is safe to show the merchant (a producing service
 * renders it as a field error on {@code callbackUrl}).
 */
public class RefusedCallbackUrl extends RuntimeException {

  public RefusedCallbackUrl(String message) {
    super(message, null, false, false);
  }
}

/**
 * The SSRF guard for merchants' callback URLs, shared by the services that accept a {@code callbackUrl} (at request
 * time) and the callback dispatcher (at send time, as the resolver of its HTTP client).
 */
package dev.lipa.common.callbacks;

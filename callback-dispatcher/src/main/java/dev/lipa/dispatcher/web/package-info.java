/**
 * HTTP endpoints of the dispatcher (to come): the merchant's delivery log and redelivery under
 * {@code /api/v1/callbacks}, signing-secret rotation, and the operator's dead-letter view and replay. Everything under
 * {@code /api/**} already requires an access token ({@code lipa.security.jwks-uri}); every query is scoped by the
 * caller's organisation.
 */
package dev.lipa.dispatcher.web;

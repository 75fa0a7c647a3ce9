/**
 * HTTP endpoints of the dispatcher: the merchant's delivery log, redelivery and signing-secret issue/rotation under
 * {@code /api/v1/callbacks} (access token required, every query scoped by the caller's organisation), and the
 * operator's dead-letter view and replay under {@code /admin/v1/callbacks} ({@code X-Operator-Token}).
 */
package dev.lipa.dispatcher.web;

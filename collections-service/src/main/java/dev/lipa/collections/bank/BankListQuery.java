package dev.lipa.collections.bank;

import java.time.Instant;

/**
 * Which of an organisation's bank collections to list: those created in {@code [createdFrom, createdBefore)} (either
 * end open when null), newest first, page {@code page} of {@code size}.
 */
public record BankListQuery(Instant createdFrom, Instant createdBefore, int page, int size) {

  public BankListQuery {
    if (page < 0 || size < 1) {
      throw new IllegalArgumentException("page must be 0 or more and size at least 1");
    }
  }
}

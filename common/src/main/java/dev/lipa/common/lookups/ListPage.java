package dev.lipa.common.lookups;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.function.Function;
import org.springframework.http.HttpStatus;

/**
 * A list endpoint's answer: the spec's envelope ({@code status}, {@code message}, {@code data} the array of records)
 * with one field after them, {@code nextCursor}: the opaque {@link ListCursor} that fetches the next page, or null on
 * the last page.
 */
@JsonPropertyOrder({"status", "message", "data", "nextCursor"})
public record ListPage<T>(
    int status,
    String message,
    @JsonInclude(JsonInclude.Include.ALWAYS) List<T> data,
    @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {

  /**
   * The 200 page of {@code size} records from {@code fetched}, which holds up to one record more (read to learn
   * whether a next page exists): the cursor names the page's last record when there is more.
   */
  public static <R, T> ListPage<T> of(List<R> fetched, int size, Function<R, ListCursor> position,
      Function<R, T> view) {
    List<R> page = fetched.size() > size ? fetched.subList(0, size) : fetched;
    String next = fetched.size() > size ? position.apply(page.getLast()).encode() : null;
    return new ListPage<>(HttpStatus.OK.value(), "OK", page.stream().map(view).toList(), next);
  }
}

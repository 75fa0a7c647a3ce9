package dev.lipa.dispatcher.delivery;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads at most {@code limit} bytes of a merchant's answer and stops reading there: a merchant that answers with a
 * huge (or endless) body costs us no more than the limit. A short body is read to its end, which lets the client
 * keep the connection for the next callback.
 */
final class ResponseSnippet implements HttpResponse.BodySubscriber<String> {

  private final int limit;
  private final CompletableFuture<String> result = new CompletableFuture<>();
  private byte[] bytes = new byte[0];
  private Flow.Subscription subscription;

  private ResponseSnippet(int limit) {
    this.limit = limit;
  }

  static HttpResponse.BodyHandler<String> handler(int limit) {
    return info -> new ResponseSnippet(limit);
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    if (limit == 0) {
      finish();
      return;
    }
    subscription.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    for (ByteBuffer buffer : buffers) {
      int take = Math.min(buffer.remaining(), limit - bytes.length);
      int start = bytes.length;
      bytes = Arrays.copyOf(bytes, start + take);
      buffer.get(bytes, start, take);
      if (bytes.length == limit) {
        finish();
        return;
      }
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable throwable) {
    result.completeExceptionally(throwable);
  }

  @Override
  public void onComplete() {
    result.complete(text());
  }

  @Override
  public CompletionStage<String> getBody() {
    return result;
  }

  private void finish() {
    result.complete(text());
    subscription.cancel(); // stop reading; the client closes this connection instead of reusing it
  }

  private String text() {
    // a cut can split a multi-byte character: decoding replaces the broken tail instead of failing
    return bytes.length == 0 ? null : new String(bytes, StandardCharsets.UTF_8);
  }
}

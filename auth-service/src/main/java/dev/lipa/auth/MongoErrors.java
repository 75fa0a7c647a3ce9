package dev.lipa.auth;

import com.mongodb.MongoServerException;

/** Recognises the store's answers the stores react to rather than fail on. */
public final class MongoErrors {

  private static final int DUPLICATE_KEY = 11000;

  private MongoErrors() {
  }

  /** A unique index refused the write (also what a lost race of two concurrent upserts looks like). */
  public static boolean isDuplicateKey(RuntimeException e) {
    return e instanceof MongoServerException server && server.getCode() == DUPLICATE_KEY;
  }
}

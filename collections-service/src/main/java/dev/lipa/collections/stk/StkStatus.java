package dev.lipa.collections.stk;

/** Where an STK push stands; SUCCESS and FAILED are final. */
public enum StkStatus {
  PENDING, SUCCESS, FAILED
}

package dev.lipa.common.testsupport.archfixture.orders;

/** The orders feature's public face, which other features may use. */
public class Orders {

  /** The order with this id. */
  public Order find(String id) {
    return new Order(id);
  }
}

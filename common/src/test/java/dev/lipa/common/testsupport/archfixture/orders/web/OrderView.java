package dev.lipa.common.testsupport.archfixture.orders.web;

/** A web detail of the orders feature, which no other feature may use. */
public record OrderView(String id) {
}

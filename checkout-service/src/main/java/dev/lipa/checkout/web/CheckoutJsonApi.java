package dev.lipa.checkout.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a controller whose failures {@link CheckoutExceptionHandler} renders in the checkout error body (the merchant
 * session API and the hosted page's JSON API); the hosted page's HTML controller is not one.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CheckoutJsonApi {
}

package dev.lipa.auth;

import dev.lipa.common.testsupport.SharedInfraInitializer;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;

/**
 * The one Spring context every integration test of this module shares (same configuration, so Spring caches it):
 * the whole service on a random port over the shared in-memory MongoDB wire server, with an operator token set.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "lipa.operator.token=" + AuthFixtures.OPERATOR_TOKEN)
@ContextConfiguration(initializers = SharedInfraInitializer.class)
public @interface AuthServiceIntegrationTest {
}

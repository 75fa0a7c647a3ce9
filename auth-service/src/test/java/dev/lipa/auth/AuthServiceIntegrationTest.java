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
 * the whole service on a random port over the shared in-memory MongoDB wire server, with the shared operator token, a
 * named one and the internal token set.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"lipa.operator.token=" + AuthFixtures.OPERATOR_TOKEN,
        "lipa.operator.tokens." + AuthFixtures.NAMED_OPERATOR + "=" + AuthFixtures.NAMED_OPERATOR_TOKEN,
        "lipa.internal.token=" + AuthFixtures.INTERNAL_TOKEN,
        // only 127.0.0.1 is a trusted proxy here, so a test can also call from another loopback address that is not
        // (tokens.TokenThrottleIntegrationTests)
        "lipa.rate-limits.trusted-proxies=127.0.0.1/32"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
public @interface AuthServiceIntegrationTest {
}

package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.lipa.common.kafka.ListenerErrorHandler;
import java.util.ArrayList;
import java.util.List;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Asserts that no listener of a service escapes the platform's error handling: every {@code @KafkaListener} in the
 * service's code (and in common's, where the service enables it) has an explicit {@code id}, runs as a container of
 * the service's context, and every container there has the context's {@link ListenerErrorHandler}, whichever factory
 * made it, and spring-kafka's observation (the record's trace context continued: common's {@code TracingDefaults}
 * turns it on for every factory Spring Boot's configurer builds; a batch listener reads each record in its own
 * observation through {@code RecordBatches}).
 */
public final class ListenerCoverage {

  private ListenerCoverage() {
  }

  /**
   * @param packages the service's root packages: every listener there must run in the context; common's listeners
   *     must run wherever the service enables them (their bean is in the context)
   */
  public static void assertEveryListenerHasThePlatformErrorHandler(ApplicationContext context, String... packages) {
    List<String> roots = new ArrayList<>(List.of(packages));
    roots.add("dev.lipa.common");
    // main code only: common's test-jar has listeners of its own tests, which no service runs
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")).importPackages(roots);
    List<String> declared = new ArrayList<>();
    for (JavaClass javaClass : classes) {
      boolean serviceOwn = List.of(packages).stream().anyMatch(p -> javaClass.getPackageName().startsWith(p));
      for (JavaMethod method : javaClass.getMethods()) {
        if (method.isAnnotatedWith(KafkaListener.class)) {
          String id = method.reflect().getAnnotation(KafkaListener.class).id();
          assertThat(id).as("the id of @KafkaListener %s", method.getFullName()).isNotBlank();
          if (serviceOwn || context.getBeanNamesForType(javaClass.reflect()).length > 0) {
            declared.add(context.getEnvironment().resolvePlaceholders(id));
          }
        }
      }
    }
    assertThat(declared).as("@KafkaListener methods in %s", List.of(packages)).isNotEmpty();

    KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
    ListenerErrorHandler platform = context.getBean(ListenerErrorHandler.class);
    assertThat(registry.getListenerContainerIds()).as("listener containers of the context").containsAll(declared);
    for (MessageListenerContainer container : registry.getListenerContainers()) {
      assertThat(container.getContainerProperties().getMessageListener()).isNotNull();
      assertThat(((AbstractMessageListenerContainer<?, ?>) container).getCommonErrorHandler())
          .as("the error handler of listener %s", container.getListenerId()).isSameAs(platform);
      assertThat(container.getContainerProperties().isObservationEnabled())
          .as("spring-kafka's observation on listener %s", container.getListenerId()).isTrue();
    }
  }
}

package dev.lipa.common.testsupport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Optional;
import java.util.Set;

/**
 * The architecture rules every service and the gateway check, one set for all: features do not reach into each
 * other's internals, domain code has no web or Kafka types, controllers do not import stores.
 *
 * <p>A feature is a direct subpackage of the module's root package ({@code dev.lipa.payouts.ledger}); its own
 * top-level classes are what other features may use, its subpackages ({@code ledger.web}) are its own. Known
 * violations are not hidden: a module passes them by name ({@code allowing}), each with a comment saying why and
 * what removes it.
 */
public final class ArchitectureRules {

  /** Web (Spring MVC, servlet, HTTP) and Kafka packages that domain code must not see. */
  public static final String[] WEB_AND_KAFKA = {"org.springframework.web..", "org.springframework.http..",
      "jakarta.servlet..", "org.apache.kafka..", "org.springframework.kafka..", "dev.lipa.common.servlet.."};

  private ArchitectureRules() {
  }

  /** The module's production classes under {@code rootPackage}, without tests and jars. */
  public static JavaClasses productionClasses(String rootPackage) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(rootPackage);
  }

  /**
   * No class of one feature depends on a class inside another feature's subpackages. {@code allowed} lists
   * known violations as {@code "origin class -> target class"} (fully qualified names, nested classes by their
   * enclosing class), each to be documented by the caller.
   */
  public static ArchRule featuresDoNotReachIntoEachOthersInternals(String rootPackage, String... allowed) {
    Set<String> exceptions = Set.of(allowed);
    return classes().that().resideInAPackage(rootPackage + "..")
        .should(new ArchCondition<JavaClass>("not depend on another feature's subpackages") {
          @Override
          public void check(JavaClass origin, ConditionEvents events) {
            Optional<String> from = feature(rootPackage, origin);
            if (from.isEmpty()) {
              return;
            }
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
              JavaClass target = dependency.getTargetClass().getBaseComponentType();
              Optional<String> to = feature(rootPackage, target);
              if (to.isEmpty() || to.equals(from)
                  || target.getPackageName().equals(rootPackage + "." + to.get())) {
                continue;
              }
              if (exceptions.contains(outermost(origin) + " -> " + outermost(target))) {
                continue;
              }
              events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
            }
          }
        })
        .allowEmptyShould(true);
  }

  /** Classes in the given domain packages (exactly those, not their subpackages) use no web or Kafka types. */
  public static ArchRule domainHasNoWebOrKafkaTypes(String... domainPackages) {
    return noClasses().that().resideInAnyPackage(domainPackages)
        .should().dependOnClassesThat().resideInAnyPackage(WEB_AND_KAFKA)
        .allowEmptyShould(true);
  }

  /**
   * No controller ({@code *Controller}) depends on a store ({@code *Store}, or a type nested in one). {@code
   * allowed} lists known violations by the controller's fully qualified name, each documented by the caller.
   */
  public static ArchRule controllersDoNotImportStores(String rootPackage, String... allowed) {
    Set<String> exceptions = Set.of(allowed);
    return classes().that().resideInAPackage(rootPackage + "..").and().haveSimpleNameEndingWith("Controller")
        .should(new ArchCondition<JavaClass>("not depend on a *Store") {
          @Override
          public void check(JavaClass controller, ConditionEvents events) {
            if (exceptions.contains(outermost(controller))) {
              return;
            }
            for (Dependency dependency : controller.getDirectDependenciesFromSelf()) {
              String target = outermost(dependency.getTargetClass().getBaseComponentType());
              if (target.endsWith("Store")) {
                events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
              }
            }
          }
        })
        .allowEmptyShould(true);
  }

  /** The feature (first package below the root) a class belongs to; empty for the root package and outside. */
  private static Optional<String> feature(String rootPackage, JavaClass type) {
    String name = type.getPackageName();
    if (!name.startsWith(rootPackage + ".")) {
      return Optional.empty();
    }
    String rest = name.substring(rootPackage.length() + 1);
    int dot = rest.indexOf('.');
    return Optional.of(dot < 0 ? rest : rest.substring(0, dot));
  }

  private static String outermost(JavaClass type) {
    String name = type.getName();
    int dollar = name.indexOf('$');
    return dollar < 0 ? name : name.substring(0, dollar);
  }
}

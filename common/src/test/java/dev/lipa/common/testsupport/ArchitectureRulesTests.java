package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The shared rules catch each kind of violation in a small fixture module, and let named exceptions through. */
class ArchitectureRulesTests {

  private static final String ROOT = "dev.lipa.common.testsupport.archfixture";
  private static final JavaClasses FIXTURE = new ClassFileImporter().importPackages(ROOT);

  private static List<String> violations(ArchRule rule) {
    return rule.evaluate(FIXTURE).getFailureReport().getDetails();
  }

  @Nested
  class Features {

    @Test
    void reportsAFeatureUsingAnotherFeaturesSubpackage() {
      assertThat(violations(ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT)))
          .isNotEmpty()
          .allMatch(line -> line.contains("billing.Invoices") && line.contains("orders.web.OrderView"));
    }

    @Test
    void letsAFeatureUseAnotherFeaturesTopLevelClasses() {
      assertThat(violations(ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT)))
          .noneMatch(line -> line.contains("orders.Orders>") && !line.contains("OrderView"));
    }

    @Test
    void passesAViolationNamedAsAnException() {
      assertThat(violations(ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT,
          ROOT + ".billing.Invoices -> " + ROOT + ".orders.web.OrderView"))).isEmpty();
    }
  }

  @Nested
  class Domain {

    @Test
    void reportsDomainCodeUsingAWebType() {
      assertThat(violations(ArchitectureRules.domainHasNoWebOrKafkaTypes(ROOT + ".orders")))
          .isNotEmpty()
          .allMatch(line -> line.contains("orders.Order.") && line.contains("HttpStatus"));
    }

    @Test
    void doesNotLookIntoTheDomainsSubpackages() {
      assertThat(violations(ArchitectureRules.domainHasNoWebOrKafkaTypes(ROOT + ".billing"))).isEmpty();
    }
  }

  @Nested
  class Controllers {

    @Test
    void reportsAControllerUsingAStore() {
      assertThat(violations(ArchitectureRules.controllersDoNotImportStores(ROOT)))
          .isNotEmpty()
          .allMatch(line -> line.contains("OrderController") && line.contains("OrderStore"));
    }

    @Test
    void passesAControllerNamedAsAnException() {
      assertThat(violations(ArchitectureRules.controllersDoNotImportStores(ROOT,
          ROOT + ".orders.web.OrderController"))).isEmpty();
    }
  }
}

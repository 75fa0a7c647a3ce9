package dev.lipa.collections;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Keeps the STK domain free of web and Kafka types, and rails behind their port. */
class ArchitectureTests {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.lipa.collections");

  @Test
  void stkDomainDoesNotDependOnWebOrKafkaTypes() {
    noClasses().that().resideInAnyPackage("dev.lipa.collections.stk", "dev.lipa.collections.stk.rail")
        .should().dependOnClassesThat().resideInAnyPackage(
            "org.springframework.web..", "org.springframework.http..", "jakarta.servlet..",
            "org.apache.kafka..", "org.springframework.kafka..", "dev.lipa.common.servlet..")
        .check(CLASSES);
  }

  @Test
  void theRailPortKnowsNothingOfTheStkFeatureOrOfItsAdapters() {
    noClasses().that().resideInAPackage("dev.lipa.collections.stk.rail")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lipa.collections.stk",
            "dev.lipa.collections.stk.rail.sandbox", "dev.lipa.collections.stk.web")
        .check(CLASSES);
  }

  @Test
  void onlyTheWebAdaptersTalkHttp() {
    // the tz and internal packages are web adapters only: they serve TZS STK records and other services' STK
    // pushes through the STK feature
    noClasses().that().resideOutsideOfPackages("dev.lipa.collections..web..", "dev.lipa.collections.tz..",
            "dev.lipa.collections.internal..")
        .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..", "jakarta.servlet..")
        .check(CLASSES);
  }

  @Test
  void theWebAdapterDoesNotReachTheRails() {
    noClasses().that().resideInAPackage("dev.lipa.collections.stk.web")
        .should().dependOnClassesThat().resideInAnyPackage("dev.lipa.collections.stk.rail..")
        .check(CLASSES);
  }
}

package dev.lipa.auth;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.lipa.common.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The shared rules ({@link ArchitectureRules}), and features depending one way: admin and tokens use
 * organisations, apikeys, keys and revocations, never the reverse.
 */
class ArchitectureTests {

  private static final String ROOT = "dev.lipa.auth";
  private static final JavaClasses CLASSES = ArchitectureRules.productionClasses(ROOT);

  @Test
  void featuresDoNotReachIntoEachOthersInternals() {
    ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT).check(CLASSES);
  }

  @Test
  void domainIsFreeOfTheWebAndKafka() {
    ArchitectureRules.domainHasNoWebOrKafkaTypes("..auth.organisations..", "..auth.apikeys..").check(CLASSES);
  }

  @Test
  void controllersDoNotImportStores() {
    ArchitectureRules.controllersDoNotImportStores(ROOT).check(CLASSES);
  }

  @Test
  void organisationsStandAlone() {
    noClasses().that().resideInAPackage("..auth.organisations..")
        .should().dependOnClassesThat().resideInAnyPackage("..auth.apikeys..", "..auth.tokens..", "..auth.keys..",
            "..auth.admin..")
        .check(CLASSES);
  }

  @Test
  void keysStandAlone() {
    noClasses().that().resideInAPackage("..auth.keys..")
        .should().dependOnClassesThat().resideInAnyPackage("..auth.organisations..", "..auth.apikeys..",
            "..auth.tokens..", "..auth.admin..")
        .check(CLASSES);
  }

  @Test
  void apiKeysKnowNothingOfTokensOrTheAdminApi() {
    noClasses().that().resideInAPackage("..auth.apikeys..")
        .should().dependOnClassesThat().resideInAnyPackage("..auth.tokens..", "..auth.admin..")
        .check(CLASSES);
  }

  @Test
  void revocationsKnowNothingOfTokensKeysOrTheAdminApi() {
    noClasses().that().resideInAPackage("..auth.revocations..")
        .should().dependOnClassesThat().resideInAnyPackage("..auth.tokens..", "..auth.admin..", "..auth.keys..")
        .check(CLASSES);
  }

  @Test
  void tokensKnowNothingOfTheAdminApi() {
    noClasses().that().resideInAPackage("..auth.tokens..")
        .should().dependOnClassesThat().resideInAnyPackage("..auth.admin..")
        .check(CLASSES);
  }
}

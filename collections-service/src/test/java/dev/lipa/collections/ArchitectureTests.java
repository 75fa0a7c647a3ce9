package dev.lipa.collections;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.lipa.common.testsupport.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The shared rules ({@link ArchitectureRules}); the STK and bank domains free of web and Kafka types, rails behind
 * their port, and STK knowing nothing of bank collections.
 */
class ArchitectureTests {

  private static final String ROOT = "dev.lipa.collections";
  private static final JavaClasses CLASSES = ArchitectureRules.productionClasses(ROOT);

  @Test
  void featuresDoNotReachIntoEachOthersInternals() {
    ArchitectureRules.featuresDoNotReachIntoEachOthersInternals(ROOT,
        // Known, frozen: the TZ lookup is an STK web adapter living outside stk, so it reaches stk.web's view and
        // its mapper. Issue 14 item 1 moves it into the STK feature; remove these lines then.
        "dev.lipa.collections.tz.TzCollectionController -> dev.lipa.collections.stk.web.StkPushViews",
        "dev.lipa.collections.tz.TzCollectionController -> dev.lipa.collections.stk.web.StkPushView")
        .check(CLASSES);
  }

  @Test
  void domainIsFreeOfTheWebAndKafka() {
    ArchitectureRules.domainHasNoWebOrKafkaTypes("dev.lipa.collections.stk", "dev.lipa.collections.stk.rail",
        "dev.lipa.collections.bank").check(CLASSES);
  }

  @Test
  void controllersDoNotImportStores() {
    ArchitectureRules.controllersDoNotImportStores(ROOT).check(CLASSES);
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

  @Test
  void theStkFeatureKnowsNothingOfBankCollections() {
    noClasses().that().resideInAPackage("dev.lipa.collections.stk..")
        .should().dependOnClassesThat().resideInAPackage("dev.lipa.collections.bank..")
        .check(CLASSES);
  }
}

package dev.lipa.auth;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Features depend one way: admin and tokens use organisations, apikeys, keys and revocations, never the reverse.
 */
@AnalyzeClasses(packages = "dev.lipa.auth", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

  @ArchTest
  static final ArchRule organisationsStandAlone = noClasses().that().resideInAPackage("..auth.organisations..")
      .should().dependOnClassesThat().resideInAnyPackage("..auth.apikeys..", "..auth.tokens..", "..auth.keys..",
          "..auth.admin..");

  @ArchTest
  static final ArchRule keysStandAlone = noClasses().that().resideInAPackage("..auth.keys..")
      .should().dependOnClassesThat().resideInAnyPackage("..auth.organisations..", "..auth.apikeys..",
          "..auth.tokens..", "..auth.admin..");

  @ArchTest
  static final ArchRule apiKeysKnowNothingOfTokensOrTheAdminApi = noClasses().that().resideInAPackage("..auth.apikeys..")
      .should().dependOnClassesThat().resideInAnyPackage("..auth.tokens..", "..auth.admin..");

  @ArchTest
  static final ArchRule revocationsKnowNothingOfTokensOrTheAdminApi = noClasses().that()
      .resideInAPackage("..auth.revocations..")
      .should().dependOnClassesThat().resideInAnyPackage("..auth.tokens..", "..auth.admin..", "..auth.keys..");

  @ArchTest
  static final ArchRule tokensKnowNothingOfTheAdminApi = noClasses().that().resideInAPackage("..auth.tokens..")
      .should().dependOnClassesThat().resideInAnyPackage("..auth.admin..");

  @ArchTest
  static final ArchRule domainIsFreeOfTheWeb = noClasses().that()
      .resideInAnyPackage("..auth.organisations..", "..auth.apikeys..")
      .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web..", "jakarta.servlet..");
}

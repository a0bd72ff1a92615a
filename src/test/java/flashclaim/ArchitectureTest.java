package flashclaim;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layering of the service: the core (campaigns, claims, audit, locks, redemption) knows
 * nothing of the HTTP API, of the store adapters or of the Firestore and gRPC libraries; the HTTP
 * API reaches the store only through the core's ports; store adapters know nothing of HTTP; no two
 * packages depend on each other, however indirectly. Production classes only.
 */
@AnalyzeClasses(packages = "flashclaim", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule packagesAreFreeOfCycles =
      slices()
          .matching("flashclaim.(*)..")
          .should()
          .beFreeOfCycles()
          .because("each package is a feature or an adapter that can be read, and changed, on top of"
              + " the ones it uses");

  @ArchTest
  static final ArchRule coreIsIndependentOfAdaptersAndLibraries =
      noClasses()
          .that()
          .resideInAnyPackage(
              "flashclaim.campaign..",
              "flashclaim.claim..",
              "flashclaim.audit..",
              "flashclaim.lock..",
              "flashclaim.redemption..",
              "flashclaim.dashboard..",
              "flashclaim.status..",
              "flashclaim.appcheck..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "flashclaim.store..",
              "flashclaim.http..",
              "com.google.cloud..",
              "io.grpc..",
              "io.micrometer..")
          .because("the core holds the rules and ports; adapters and libraries plug in from outside");

  @ArchTest
  static final ArchRule protectionsAreIndependentOfAdaptersAndLibraries =
      noClasses()
          .that()
          .resideInAnyPackage("flashclaim.guard..", "flashclaim.idempotency..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "flashclaim.store..",
              "flashclaim.http..",
              "com.google.cloud..",
              "io.grpc..",
              "io.micrometer..")
          .because("the guard and idempotency rules are written once, over ports; HTTP and stores plug in");

  @ArchTest
  static final ArchRule admissionIsIndependentOfHttpAndStores =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.admission..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "flashclaim.store..",
              "flashclaim.http..",
              "io.micronaut.http..",
              "reactor..",
              "io.micrometer..")
          .because("admission decides on arrival times and slots; the HTTP filter plugs it in");

  @ArchTest
  static final ArchRule httpDoesNotReachIntoStores =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.http..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("flashclaim.store..")
          .because("the HTTP API talks to the core's services and ports, never to a store adapter");

  @ArchTest
  static final ArchRule storeAdaptersDoNotKnowHttp =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.store..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("flashclaim.http..")
          .because("a store adapter serves the core's ports, whatever the API in front");

  @ArchTest
  static final ArchRule metricsObserveThroughTheCore =
      noClasses()
          .that()
          .resideInAPackage("flashclaim.metrics..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("flashclaim.store..", "flashclaim.http..")
          .because("metrics observe the core's ports and counters; adapters bind their own meters");
}

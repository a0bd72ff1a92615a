package flashclaim.store.firestore;

import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannelBuilder;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the Firestore client: against an emulator that is already running ({@code
 * FIRESTORE_EMULATOR_HOST}), against one the service starts itself (the local default of the
 * development build), or against real Firestore with Application Default Credentials.
 */
@Factory
@Requires(property = "flashclaim.store", value = "firestore", defaultValue = "firestore")
public final class FirestoreFactory {
  private static final Logger LOG = LoggerFactory.getLogger(FirestoreFactory.class);

  /**
   * The Firestore client's switch for its tracing, on unless set to false; read by the client from
   * the environment only (the image and bin/load-run set it to false).
   */
  static final String TRACING = "FIRESTORE_ENABLE_TRACING";

  /**
   * The client. Interceptors (beans of {@link ClientInterceptor}) see every RPC; tests use one to
   * record the queries the service issues. With {@code FIRESTORE_EMULATOR_HOST} in the environment
   * the client library builds its own channel and interceptors are not installed. A configuration
   * that asks for an embedded emulator where there is none (the container image) does not start.
   */
  @Context
  @Bean(preDestroy = "close")
  public Firestore firestore(
      FirestoreConfig config,
      Optional<EmbeddedEmulator> embedded,
      List<ClientInterceptor> interceptors) {
    if (config.wantsEmbeddedEmulator() && embedded.isEmpty()) {
      throw new ConfigurationException(
          "flashclaim.firestore: no emulator host is set and this build has no embedded emulator"
              + " (a development tool); set flashclaim.firestore.emulator-host, or a project that"
              + " does not start with demo-");
    }
    FirestoreOptions.Builder options = FirestoreOptions.newBuilder().setProjectId(config.projectId());
    Optional<String> emulatorHost =
        embedded
            .map(EmbeddedEmulator::host)
            .or(() -> Optional.ofNullable(config.emulatorHost()).filter(h -> !h.isBlank()));
    InstantiatingGrpcChannelProvider.Builder channel =
        emulatorHost
            .map(
                host ->
                    InstantiatingGrpcChannelProvider.newBuilder()
                        .setEndpoint(host)
                        .setChannelConfigurator(ManagedChannelBuilder::usePlaintext))
            .orElseGet(FirestoreOptions::getDefaultTransportChannelProviderBuilder);
    if (!interceptors.isEmpty()) {
      channel.setInterceptorProvider(() -> interceptors);
    }
    options.setChannelProvider(channel.build());
    if (emulatorHost.isPresent()) {
      options.setCredentialsProvider(
          FixedCredentialsProvider.create(new FirestoreOptions.EmulatorCredentials()));
      LOG.info("Firestore: emulator at {}, project {}", emulatorHost.get(), config.projectId());
    } else {
      LOG.info("Firestore: project {} with Application Default Credentials", config.projectId());
    }
    String tracing = System.getenv(TRACING);
    if (tracing == null || !(tracing.equalsIgnoreCase("false") || tracing.equalsIgnoreCase("off"))) {
      LOG.info(
          "Firestore client tracing is on: it builds OpenTelemetry spans for every call, about 5% of"
              + " a claim's CPU; set {}=false unless its traces are exported",
          TRACING);
    }
    return options.build().getService();
  }
}

package flashclaim.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import flashclaim.testing.Api;
import flashclaim.testing.TestEmulator;
import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The container image as operations builds it: {@code ./mvnw -B -Pimage -Dmaven.test.skip=true
 * package} (its own build directory, {@code target/image}; the runtime of {@code
 * bin/image-runtime} in {@code target/image-rootfs}, rebuilt only when its stamp changes), then
 * the tar's layers unpacked in the order of its manifest and its entrypoint started with its
 * environment, on the test run's Firestore emulator, until {@code /health/readiness} answers 200.
 * Twice: on the test's JDK (Java 17: an AppCDS archive), and on a Java 25 runtime ({@code
 * -Dimage.java.home}: an AOT cache) where this machine has a JDK 25 ({@code JAVA25_HOME}, or
 * {@code /usr/lib/jvm/temurin-25*}, {@code /usr/lib/jvm/*-25-*}); without one that test is
 * skipped.
 *
 * <p>Where the test may make a mount namespace (root with CAP_SYS_ADMIN, as CI runs), the
 * entrypoint runs as a container runtime would run it: the unpacked layers as the root directory,
 * {@code /proc} of a new PID namespace, the image's user and working directory; so the shared
 * libraries of the image are the only ones. There it also runs with {@code -Xshare:on} (AppCDS)
 * or {@code -XX:AOTMode=on} (AOT cache), which stops the JVM when it cannot use the image's
 * archive (made by {@code bin/image-archive} in the build), and its class loading logged: most
 * classes loaded by ready, those of the warm-up's claims among them, must come from that archive.
 * Elsewhere the entrypoint runs on this machine with {@code /app} and {@code /opt/java} taken from
 * the unpacked layers: the jlinked runtime, the classpath and the classes are the image's, the C
 * libraries this machine's, and the archive, made for the image's paths, is not checked. The
 * output says which.
 *
 * <p>Tagged {@code image}: the image profile leaves it out, as that build makes the image itself.
 */
@Tag("image")
class ImageTest {
  private static final Path BASE = Path.of("").toAbsolutePath();
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
  /** Where the isolated entrypoint logs its class loading (its /tmp: in the unpacked layers). */
  private static final String CLASS_LOAD_LOG = "/tmp/class-load.log";
  /**
   * What {@code -Xlog:class+load} says of a class of the runtime's own archive ({@code
   * lib/server/classes.jsa}), and of one of an AOT cache (one file: the runtime's classes and the
   * service's).
   */
  private static final String FROM_STATIC_ARCHIVE = "source: shared objects file";
  /** What it says of a class of the service's AppCDS archive (on top of the runtime's). */
  private static final String FROM_TOP_ARCHIVE = FROM_STATIC_ARCHIVE + " (top)";
  /**
   * Classes of the warm-up's claims, first loaded by its claim requests (neither at start-up nor
   * by the HTTP server), which the archive must hold: the training start ran the warm-up.
   */
  private static final List<String> CLAIM_PATH =
      List.of(
          "flashclaim.claim.ClaimOutcome$Claimed",
          "flashclaim.claim.ClaimStore$Attempt",
          "com.google.cloud.firestore.ServerSideTransaction");

  /**
   * The archive an image carries, by the version of its runtime: the entrypoint's {@code option}
   * that names it, the option that stops the JVM when it cannot use it ({@code required}), and how
   * {@code -Xlog:class+load} ends the line of a class loaded from it ({@code source}).
   */
  private record Archive(String option, String required, String source) {
    /** Java 17 to 24: the service's AppCDS archive on top of the runtime's. */
    static final Archive APP_CDS =
        new Archive(
            "-XX:SharedArchiveFile=/opt/java/lib/server/classes.jsa:/app/flashclaim.jsa",
            "-Xshare:on",
            FROM_TOP_ARCHIVE);
    /** Java 25 and later: an AOT cache, the runtime's classes and the service's. */
    static final Archive AOT_CACHE =
        new Archive("-XX:AOTCache=/app/flashclaim.aot", "-XX:AOTMode=on", FROM_STATIC_ARCHIVE);

    static Archive of(int javaFeature) {
      return javaFeature >= 25 ? AOT_CACHE : APP_CDS;
    }
  }

  @Test
  void theImageBuildsAndItsEntrypointAnswersReadiness() throws Exception {
    Path javaHome = Path.of(System.getProperty("java.home"));
    buildAndStart(
        BASE.resolve("target/flashclaim-image.tar"),
        BASE.resolve("target/image-test"),
        javaHome,
        List.of());
  }

  /**
   * The image on a Java 25 runtime ({@code -Dimage.java.home}), its own runtime directory and tar
   * beside the other's: its entrypoint names the AOT cache, which it uses.
   */
  @Test
  void onAJava25RuntimeTheImageCarriesAnAotCacheThatItsEntrypointUses() throws Exception {
    Path java25 = java25Home();
    assumeTrue(java25 != null, "no JDK 25 on this machine (JAVA25_HOME, /usr/lib/jvm/*-25*)");
    Path tar = BASE.resolve("target/flashclaim-image-java25.tar");
    buildAndStart(
        tar,
        BASE.resolve("target/image-test-java25"),
        java25,
        List.of(
            "-Dimage.java.home=" + java25,
            "-Dimage.rootfs=" + BASE.resolve("target/image-rootfs-java25"),
            "-Dimage.tar=" + tar));
  }

  /**
   * Builds the image of {@code tar} with the runtime of {@code javaHome} ({@code properties}
   * given to the build), unpacks it into {@code work} and starts its entrypoint until ready.
   */
  private static void buildAndStart(Path tar, Path work, Path javaHome, List<String> properties)
      throws Exception {
    recreate(work);
    long start = System.nanoTime();
    build(tar, work, properties);
    long built = System.nanoTime();

    Path rootfs = unpack(tar, work);
    Map<String, Object> config = imageConfig(work);
    long unpacked = System.nanoTime();
    int java = javaFeature(rootfs.resolve("opt/java/release"));
    assertThat(java)
        .as("the image's runtime: the Java of %s", javaHome)
        .isEqualTo(javaFeature(javaHome.resolve("release")));
    Archive archive = Archive.of(java);
    assertThat(list(config, "Entrypoint").stream().map(Object::toString).toList())
        .as("the entrypoint of an image on Java %d", java)
        .contains(archive.option());

    String emulator = TestEmulator.host();
    int port = freePort();
    boolean contained = canIsolate();
    List<String> command =
        contained ? contained(rootfs, config) : onThisMachine(rootfs, config, work);
    Path output = work.resolve("service.log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    if (!contained) {
      builder.directory(rootfs.resolve(relative(string(config, "WorkingDir"))).toFile());
    }
    Map<String, String> environment = builder.environment();
    environment.clear();
    for (Object variable : list(config, "Env")) {
      String[] pair = variable.toString().split("=", 2);
      environment.put(pair[0], pair[1]);
    }
    if (!contained) {
      environment.put("JAVA_HOME", rootfs.resolve("opt/java").toString());
    }
    environment.put("FIRESTORE_EMULATOR_HOST", emulator);
    environment.put("GOOGLE_CLOUD_PROJECT", TestEmulator.PROJECT);
    environment.put("MICRONAUT_SERVER_PORT", Integer.toString(port));
    if (contained) {
      environment.put(
          "JDK_JAVA_OPTIONS",
          archive.required() + " -Xlog:class+load=info:file=" + CLASS_LOAD_LOG);
    }

    Process process = builder.start();
    List<ProcessHandle> started = new ArrayList<>();
    try {
      int status = awaitReadiness(process, URI.create("http://127.0.0.1:" + port), started);
      long ready = System.nanoTime();
      assertThat(status)
          .as("/health/readiness of the image's entrypoint (%s); output:%n%s",
              contained ? "isolated" : "on this machine", Files.readString(output))
          .isEqualTo(200);
      assertThat(mappedFiles(process))
          .as("what the service's JVM mapped: netty's epoll transport of the gRPC client, whose C"
              + " libraries (libdl, librt) the image must carry, or gRPC falls back to NIO")
          .anyMatch(file -> file.contains("netty_transport_native_epoll"));
      String sharing =
          contained ? checkArchive(rootfs, output, archive) : "archive not checked";
      System.out.printf(
          "image: %s, %d bytes; build %.1f s, unpack %.1f s, entrypoint ready %.1f s (%s; %s)%n",
          BASE.relativize(tar),
          Files.size(tar),
          seconds(built - start),
          seconds(unpacked - built),
          seconds(ready - unpacked),
          contained
              ? "isolated: the image's root, user and working directory"
              : "on this machine: the image's runtime and classpath, this machine's C libraries",
          sharing);
    } finally {
      // SIGTERM to the service itself: unshare, its parent when isolated, ignores it.
      process.descendants().forEach(started::add);
      started.forEach(ProcessHandle::destroy);
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        started.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    }
  }

  /**
   * What the isolated entrypoint loaded by ready: most of it from the service's archive (the
   * training start loaded some classes that a later start does not, and the other way round), the
   * classes of the warm-up's claims among it. (The runtime's own archive alone holds about a tenth
   * of them, and none of the service's.)
   */
  private static String checkArchive(Path rootfs, Path output, Archive archive)
      throws IOException {
    List<String> loaded = Files.readAllLines(rootfs.resolve(relative(CLASS_LOAD_LOG)));
    long fromArchive = loaded.stream().filter(line -> line.endsWith(archive.source())).count();
    assertThat(fromArchive)
        .as("classes loaded from the image's archive, of %d; output:%n%s",
            loaded.size(), Files.readString(output))
        .isGreaterThan(loaded.size() * 8L / 10);
    for (String name : CLAIM_PATH) {
      String load =
          loaded.stream()
              .filter(line -> line.contains(" " + name + " "))
              .findFirst()
              .orElse(name + " not loaded");
      assertThat(load).as("how %s was loaded", name).endsWith(archive.source());
    }
    if (archive.equals(Archive.AOT_CACHE)) {
      return String.format(
          "of %d classes loaded by ready, %d from the image's AOT cache",
          loaded.size(), fromArchive);
    }
    long fromRuntime = loaded.stream().filter(line -> line.endsWith(FROM_STATIC_ARCHIVE)).count();
    return String.format(
        "of %d classes loaded by ready, %d from the image's archive and %d from the runtime's",
        loaded.size(), fromArchive, fromRuntime);
  }

  /** The files mapped into the memory of {@code process}'s descendants, as /proc shows them. */
  private static List<String> mappedFiles(Process process) {
    List<String> files = new ArrayList<>();
    for (ProcessHandle descendant : process.descendants().toList()) {
      try {
        files.addAll(Files.readAllLines(Path.of("/proc", Long.toString(descendant.pid()), "maps")));
      } catch (IOException ended) {
        // a process that ended meanwhile maps nothing
      }
    }
    return files;
  }

  /** The feature version of a runtime's {@code release} file ({@code JAVA_VERSION="25.0.3"}). */
  private static int javaFeature(Path release) throws IOException {
    for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
      if (line.startsWith("JAVA_VERSION=")) {
        return Runtime.Version.parse(line.substring(13).replace("\"", "")).feature();
      }
    }
    throw new AssertionError("no JAVA_VERSION in " + release);
  }

  /** A JDK 25 of this machine, as bin/start-time finds one; null when there is none. */
  private static Path java25Home() throws IOException {
    String given = System.getenv("JAVA25_HOME");
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return null;
    }
    try (Stream<Path> homes = Files.list(jvms)) {
      return homes
          .filter(home -> home.getFileName().toString().matches("temurin-25.*|.*-25-.*"))
          .filter(home -> Files.isExecutable(home.resolve("bin/jlink")))
          .sorted()
          .findFirst()
          .orElse(null);
    }
  }

  /**
   * The image build of docs/operations.md, with the test's own JDK, its archive trained on the
   * test's emulator (rather than one of its own).
   */
  private static void build(Path tar, Path work, List<String> properties) throws Exception {
    Path log = work.resolve("build.log");
    List<String> command =
        new ArrayList<>(
            List.of(BASE.resolve("mvnw").toString(), "-B", "-Pimage", "-Dmaven.test.skip=true"));
    command.addAll(properties);
    // The outer build's local repository, when given on its command line (surefire passes it on).
    String repository = System.getProperty("maven.repo.local");
    if (repository != null) {
      command.add("-Dmaven.repo.local=" + repository);
    }
    command.add("package");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(BASE.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("FIRESTORE_EMULATOR_HOST", TestEmulator.host());
    // C1 only: Maven's JVM compiling the classes and Jib's layers takes about half the time.
    builder
        .environment()
        .merge("MAVEN_OPTS", "-XX:TieredStopAtLevel=1", (given, c1) -> given + " " + c1);
    Files.deleteIfExists(tar);
    Process process = builder.start();
    if (!process.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError("the image build took longer than " + BUILD_TIMEOUT + ": " + log);
    }
    assertThat(process.exitValue())
        .as("exit code of the image build; its output:%n%s", tail(log, 60))
        .isZero();
    assertThat(tar).as("the image tar").isRegularFile();
  }

  /** The tar's layers, one over the other in the order of its manifest. */
  private static Path unpack(Path tar, Path work) throws Exception {
    Path archive = work.resolve("archive");
    Path rootfs = work.resolve("rootfs");
    Files.createDirectories(archive);
    Files.createDirectories(rootfs);
    untar(tar, archive, "-xf", work);
    List<Map<String, Object>> manifest =
        ObjectMapper.getDefault()
            .readValue(
                Files.readAllBytes(archive.resolve("manifest.json")),
                Argument.listOf(Argument.mapOf(String.class, Object.class)));
    assertThat(manifest).hasSize(1);
    for (Object layer : list(manifest.get(0), "Layers")) {
      untar(archive.resolve(layer.toString()), rootfs, "-xzf", work);
    }
    return rootfs;
  }

  /** The {@code config} of the image's configuration file: Entrypoint, Env, User, WorkingDir. */
  private static Map<String, Object> imageConfig(Path work) throws IOException {
    Path archive = work.resolve("archive");
    List<Map<String, Object>> manifest =
        ObjectMapper.getDefault()
            .readValue(
                Files.readAllBytes(archive.resolve("manifest.json")),
                Argument.listOf(Argument.mapOf(String.class, Object.class)));
    Map<String, Object> file =
        ObjectMapper.getDefault()
            .readValue(
                Files.readAllBytes(archive.resolve(manifest.get(0).get("Config").toString())),
                Argument.mapOf(String.class, Object.class));
    @SuppressWarnings("unchecked")
    Map<String, Object> config = (Map<String, Object>) file.get("config");
    return config;
  }

  /**
   * The entrypoint with the unpacked layers as its root directory, as the image's user, in a mount
   * and PID namespace of its own, with what a container runtime mounts there: this machine's
   * {@code /dev} (without {@code /dev/urandom} the JDK seeds its SecureRandom from thread timing,
   * seconds at start) and the namespace's {@code /proc}; nothing of it is seen outside. The
   * network is this machine's, so that it reaches the emulator and the test reaches it.
   */
  private static List<String> contained(Path rootfs, Map<String, Object> config)
      throws IOException {
    Files.createDirectories(rootfs.resolve("proc"));
    Files.createDirectories(rootfs.resolve("dev"));
    String[] user = string(config, "User").split(":");
    List<String> command = new ArrayList<>(isolation());
    command.addAll(
        List.of(
            "--kill-child=SIGTERM",
            "/bin/sh",
            "-c",
            "root=$1 wd=$2; shift 2; mount --rbind /dev \"$root/dev\""
                + " && mount -t proc proc \"$root/proc\""
                + " && exec unshare --root=\"$root\" --wd=\"$wd\" \"$@\"",
            "sh",
            rootfs.toString(),
            string(config, "WorkingDir"),
            "--setgid",
            user.length > 1 ? user[1] : user[0],
            "--setuid",
            user[0]));
    list(config, "Entrypoint").forEach(arg -> command.add(arg.toString()));
    return command;
  }

  /**
   * The entrypoint on this machine: its paths into the image ({@code /opt/java/bin/java}, the
   * classpath file and the classpath in it) point into the unpacked layers.
   */
  private static List<String> onThisMachine(Path rootfs, Map<String, Object> config, Path work)
      throws IOException {
    List<String> command = new ArrayList<>();
    for (Object value : list(config, "Entrypoint")) {
      String arg = value.toString();
      if (arg.startsWith("@/")) {
        String classpath = Files.readString(rootfs.resolve(relative(arg.substring(1)))).strip();
        String moved =
            Arrays.stream(classpath.split(":"))
                .map(e -> e.startsWith("/") ? rootfs.resolve(relative(e)).toString() : e)
                .collect(Collectors.joining(":"));
        Path file = work.resolve("classpath-file");
        Files.writeString(file, moved, StandardCharsets.UTF_8);
        command.add("@" + file);
      } else if (arg.startsWith("/")) {
        command.add(rootfs.resolve(relative(arg)).toString());
      } else {
        command.add(arg);
      }
    }
    return command;
  }

  private static List<String> isolation() {
    return List.of("unshare", "--mount", "--pid", "--fork");
  }

  /** Whether this test may make the namespaces of {@link #contained}; nothing of the image's. */
  private static boolean canIsolate() throws InterruptedException {
    List<String> probe = new ArrayList<>(isolation());
    probe.add("true");
    try {
      Process process =
          new ProcessBuilder(probe)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException noUnshare) {
      return false;
    }
  }

  /** The status of the last answer of {@code /health/readiness}: 200, or what it was at the end. */
  private static int awaitReadiness(Process process, URI url, List<ProcessHandle> started)
      throws InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    int status = -1;
    while (System.nanoTime() < deadline && process.isAlive()) {
      process.descendants().forEach(started::add);
      try {
        status = Api.get(url, "/health/readiness", null).status();
        if (status == 200) {
          return status;
        }
      } catch (UncheckedIOException notListeningYet) {
        // starting
      }
      Thread.sleep(250);
    }
    return status;
  }

  private static void untar(Path file, Path into, String mode, Path work) throws Exception {
    Path log = work.resolve("tar.log");
    Process process =
        new ProcessBuilder("tar", mode, file.toString(), "-C", into.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("tar %s finished", file).isTrue();
    assertThat(process.exitValue())
        .as("tar %s %s; output:%n%s", mode, file, tail(log, 20))
        .isZero();
  }

  private static String relative(String absolute) {
    return absolute.replaceFirst("^/+", "");
  }

  private static String string(Map<String, Object> map, String key) {
    Object value = map.get(key);
    assertThat(value).as(key).isNotNull();
    return value.toString();
  }

  private static List<?> list(Map<String, Object> map, String key) {
    Object value = map.get(key);
    assertThat(value).as(key).isInstanceOf(List.class);
    return (List<?>) value;
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "[" + file + " unreadable: " + e.getMessage() + "]";
    }
  }

  private static void recreate(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    Files.createDirectories(dir);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}

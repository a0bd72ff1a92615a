package flashclaim.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/image-runtime} under {@code set -o pipefail}: no pipeline of it fails because one of
 * its commands stops reading early. An {@code ldconfig} ahead of the real one on the PATH names
 * libgcc_s on its first line and then writes far more than a pipe holds: a reader that leaves
 * after the first match (as {@code awk '{...; exit}'} did) makes it die of SIGPIPE every time,
 * which the script turned into exit 141. The runtime holds only java.base, so jlink is quick.
 */
class ImageRuntimeScriptTest {
  private static final Path SCRIPT = Path.of("bin", "image-runtime").toAbsolutePath();

  @Test
  void anLdconfigThatKeepsWritingAfterTheMatchDoesNotFailTheScript(@TempDir Path dir)
      throws Exception {
    Path realLdconfig =
        Stream.of("/sbin/ldconfig", "/usr/sbin/ldconfig")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no ldconfig on this machine"));
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path ldconfig = bin.resolve("ldconfig");
    Files.writeString(
        ldconfig,
        String.join(
            "\n",
            "#!/bin/sh",
            "'" + realLdconfig + "' -p | grep 'libgcc_s\\.so\\.1 '",
            "i=0",
            "while [ $i -lt 20000 ]; do",
            "  echo \"\tlibfiller$i.so.1 (libc6,x86-64) => /nonexistent/libfiller$i.so.1\"",
            "  i=$((i + 1))",
            "done",
            ""),
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(ldconfig, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path out = dir.resolve("rootfs");
    Path log = dir.resolve("image-runtime.log");

    ProcessBuilder builder =
        new ProcessBuilder(SCRIPT.toString(), out.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("IMAGE_JAVA_MODULES", "java.base");
    Process process = builder.start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("finished").isTrue();
    String output = Files.readString(log);

    assertThat(process.exitValue()).as("exit code; output:%n%s", output).isZero();
    assertThat(out.resolve("opt/java/bin/java")).isExecutable();
    assertThat(libgccS(out)).as("libgcc_s.so.1 in the runtime").isNotEmpty();
  }

  private static List<Path> libgccS(Path rootfs) throws IOException {
    try (Stream<Path> files = Files.walk(rootfs)) {
      return files.filter(p -> p.getFileName().toString().equals("libgcc_s.so.1")).toList();
    }
  }
}

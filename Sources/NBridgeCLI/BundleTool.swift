import Glibc
import NBridgeRuntime
import NBridgeSystem

/// The programs `nbridge bundle` runs (`dpkg-deb`, `rpmbuild`, `tar`, ...), their output kept in
/// files of the bundle's work folder.
struct BundleTool {
  /// The work folder the output files go to.
  let scratch: String
  /// The environment every tool gets: this process's, with `SOURCE_DATE_EPOCH` and a C locale.
  let environment: [String: String]

  /// What a finished tool said.
  struct Result {
    /// Its exit status (127 when it could not start).
    var status: Int32
    /// Its standard output.
    var stdout: String
    /// Its standard error.
    var stderr: String
  }

  /// Whether `name` is on `PATH` (the sbin folders too, where `ldconfig` lives).
  func has(_ name: String) -> Bool { Spawn.locate(name, path: searchPath) != nil }

  /// `PATH` with the sbin folders appended.
  var searchPath: String { (environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin" }

  /// Runs `arguments` to its end and returns what it printed.
  func run(_ arguments: [String], in folder: String? = nil) -> Result {
    let out = scratch + "/.tool-stdout"
    let err = scratch + "/.tool-stderr"
    defer {
      _ = try? POSIX.unlink(out)
      _ = try? POSIX.unlink(err)
    }
    var arguments = arguments
    if let program = Spawn.locate(arguments[0], path: searchPath) { arguments[0] = program }
    let status: Int32?
    if let folder {
      // posix_spawn has no portable chdir: `sh -c 'cd "$0" && exec "$@"'` does it.
      status = Spawn.run(
        ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder] + arguments, environment: environment,
        output: .files(stdout: out, stderr: err))
    } else {
      status = Spawn.run(arguments, environment: environment, output: .files(stdout: out, stderr: err))
    }
    return Result(status: status ?? 127, stdout: POSIX.readText(out) ?? "", stderr: POSIX.readText(err) ?? "")
  }
}

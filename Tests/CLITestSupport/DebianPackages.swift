import NBridgeTesting

/// The tests' clean-up of Debian packages they installed (they run as root, as CI does).
package enum DebianPackages {
  /// Purges `package` if a test left it installed (or its configuration), waiting for dpkg's lock
  /// as apt-get does (another test, or another test process, may be installing meanwhile). A
  /// package the test removed, the usual end, is asked of dpkg-query only: apt-get reads its
  /// whole cache first (~1 s of CPU).
  package static func purge(_ package: String) {
    let status = try? ChildProcess.run("dpkg-query", ["-W", "-f", "${db:Status-Status}", package])
    if let status, status.status != 0 || status.stdout == "not-installed" { return }
    _ = try? ChildProcess.run(
      "apt-get", ["purge", "-y", "-o", "DPkg::Lock::Timeout=120", package],
      environment: ["DEBIAN_FRONTEND": "noninteractive"], timeout: 300)
  }
}

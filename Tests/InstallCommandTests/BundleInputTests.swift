import Foundation
import NBridgeTesting
import Testing

/// `nbridge bundle` refuses what a package cannot hold: exit 2, one line naming the field or the
/// tool, and nothing left in `--out`.
@Suite(.onTestThreads) struct BundleInputTests {
  /// A page app whose manifest is `manifest`, plus `files`.
  static func app(_ dir: TemporaryDirectory, _ manifest: String, files: [String: String] = [:]) throws -> String {
    try dir.write("app/index.html", "<!doctype html><title>x</title>")
    try dir.write("app/nbridge.json", manifest)
    for (name, text) in files { try dir.write("app/" + name, text) }
    return dir.file("app")
  }

  /// Bundles and checks the refusal: status 2, one line holding `expected`, `--out` empty.
  static func refuses(
    _ manifest: String, files: [String: String] = [:], arguments: [String] = [], environment: [String: String?] = [:],
    saying expected: String
  ) throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-bundle-bad")
    let app = try app(dir, manifest, files: files)
    let out = dir.file("out")
    let r = try NBridgeTest.command(["bundle", app, "--out", out] + arguments, environment: environment, timeout: 120)
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains(expected), "\(r.stderr)")
    #expect(r.stderr.filter { $0 == "\n" }.count == 1, "one line: \(r.stderr)")
    let left = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
    #expect(left.isEmpty, "left in --out: \(left)")
  }

  static let complete = #"{"id": "com.example.notes", "name": "Notes", "version": "1.2.0", "description": "Notes"#

  @Test func aManifestWithoutNameVersionOrIdIsRefusedNamingTheField() throws {
    try Self.refuses(
      #"{"id": "com.example.notes", "version": "1.0", "description": "Notes"}"#, saying: #"field "name" is required"#)
    try Self.refuses(
      #"{"id": "com.example.notes", "name": "Notes", "description": "Notes"}"#, saying: #"field "version" is required"#)
    try Self.refuses(
      #"{"name": "Notes", "version": "1.0", "description": "Notes"}"#, saying: #"field "id" is required"#)
    try Self.refuses(
      #"{"id": "com.example.notes", "name": "Notes", "version": "1.0"}"#, saying: #"field "description" is required"#)
  }

  @Test func aVersionDpkgOrRpmWouldRejectIsRefused() throws {
    for version in ["1.0-beta", "v1.0", "1.0 beta", "1_0"] {
      try Self.refuses(
        #"{"id": "com.example.notes", "name": "Notes", "version": "\#(version)", "description": "Notes"}"#,
        saying: #"field "version" must start with a digit"#)
    }
  }

  @Test func anIconThatIsNotAnImageIsRefused() throws {
    try Self.refuses(
      Self.complete + #"", "bundle": {"icon": "icon.png"}}"#, files: ["icon.png": "not a picture"],
      saying: #"field "bundle.icon": "#)
    try Self.refuses(
      Self.complete + #"", "bundle": {"icon": "icon.svg"}}"#, files: ["icon.svg": "plain text"],
      saying: "is not an SVG image")
    try Self.refuses(Self.complete + #"", "bundle": {"icon": "icon.gif"}}"#, saying: #"field "bundle.icon" must be"#)
    try Self.refuses(
      Self.complete + #"", "bundle": {"command": "Notes App"}}"#, saying: #"field "bundle.command" must be"#)
    try Self.refuses(Self.complete + #"", "bundle": {"colour": "red"}}"#, saying: #"unknown field "bundle.colour""#)
  }

  @Test func aMissingToolIsNamed() throws {
    let empty = try TemporaryDirectory(prefix: "nbridge-bundle-nopath")
    try Self.refuses(
      Self.complete + #""}"#, arguments: ["--format", "deb"], environment: ["PATH": empty.path],
      saying: "dpkg-deb is missing (install the dpkg package)")
    try Self.refuses(
      Self.complete + #""}"#, arguments: ["--format", "rpm"], environment: ["PATH": empty.path],
      saying: "rpmbuild is missing (install the rpm package)")
    try Self.refuses(Self.complete + #""}"#, arguments: ["--format", "zip"], saying: #"unknown format "zip""#)
  }

  /// rpmbuild fails after the archive is written: neither is left in --out.
  @Test func aToolFailingHalfwayLeavesNothingInOut() throws {
    let bin = try TemporaryDirectory(prefix: "nbridge-bundle-fakebin")
    let fake = try bin.write("rpmbuild", "#!/bin/sh\necho 'error: simulated rpmbuild failure' >&2\nexit 1\n")
    chmod(fake, 0o755)
    try Self.refuses(
      Self.complete + #""}"#, arguments: ["--format", "tar,rpm"],
      environment: ["PATH": bin.path + ":/usr/bin:/bin", "SOURCE_DATE_EPOCH": "1700000000"],
      saying: "rpmbuild failed: error: simulated rpmbuild failure")
  }
}

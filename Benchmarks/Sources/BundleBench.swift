import Foundation

/// The shipped app's figures (issue 34): the sample app's .deb from the release build, and the
/// start-up of the bundled command, unpacked from its portable archive, against `nbridge run` in
/// the same rounds, on the same hello script as the start-up section.
struct BundleBench {
  let nbridge: String
  let app: String
  let directory: String
  let environment: [String: String]

  /// (.deb size in MiB, bundled command's start-up ms, `nbridge run` start-up ms in the same
  /// rounds); nil where a step failed (said on stderr).
  func run() -> (debMiB: Double?, installed: Double?, development: Double?) {
    let out = "\(directory)/out"
    let bundled = Spawned(
      [nbridge, "bundle", app, "--format", "deb,tar", "--out", out], set: ["SOURCE_DATE_EPOCH": "1700000000"],
      stderr: "\(directory)/bundle.err")
    guard bundled.wait().status == 0 else {
      let error = (try? String(contentsOfFile: "\(directory)/bundle.err", encoding: .utf8)) ?? ""
      progress("bundle: nbridge bundle failed: \(error)")
      return (nil, nil, nil)
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
    let deb = names.first { $0.hasSuffix(".deb") }.map { "\(out)/\($0)" }
    let size = deb.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
    let debMiB = size.map { Double($0) / 1_048_576 }

    // The portable archive holds `<command>-<version>/bin/<command>`, the launcher a user runs.
    let unpacked = "\(directory)/unpacked"
    try? FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
    guard let tar = names.first(where: { $0.hasSuffix(".tar.gz") }),
      Spawned(["tar", "-xzf", "\(out)/\(tar)", "-C", unpacked]).wait().status == 0,
      let top = try? FileManager.default.contentsOfDirectory(atPath: unpacked).first,
      let command = try? FileManager.default.contentsOfDirectory(atPath: "\(unpacked)/\(top)/bin").first
    else {
      progress("bundle: the portable archive did not unpack")
      return (debMiB, nil, nil)
    }
    let hello = "\(directory)/hello.js"
    try! "console.log('hello');\n".write(toFile: hello, atomically: true, encoding: .utf8)
    let figures = interleavedStartups([
      (["\(unpacked)/\(top)/bin/\(command)", "run", hello], environment), ([nbridge, "run", hello], environment),
    ])
    return (debMiB, figures[0]?.ms, figures[1]?.ms)
  }
}

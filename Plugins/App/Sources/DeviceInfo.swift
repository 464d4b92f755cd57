import NBridgeSystem
#if canImport(Glibc)
  import Glibc
#endif

/// `app.deviceInfo()`'s result: the machine, its OS and the user's locale.
struct DeviceInfo: Encodable, Equatable {
  /// Always `linux`.
  var platform = "linux"
  /// `VERSION_ID` of `/etc/os-release` (`12` on Debian bookworm).
  var osVersion: String
  /// `osVersion` again, under WKBridgeKit's name.
  var version: String
  /// The DMI product name (`/sys/class/dmi/id/product_name`), or `unknown`.
  var model: String
  /// The machine architecture as `uname -m` prints it (`x86_64`, `aarch64`).
  var arch: String
  /// ISO 639 language code of the locale (`en` for `en_US.UTF-8`).
  var language: String
  /// ISO 3166 region code of the locale (`US`), or null when the locale names none.
  var region: String?
  /// A UUID made once per data directory.
  var deviceId: String

  /// Encodes `region` as null rather than leaving it out, so the shape is always complete.
  func encode(to encoder: any Encoder) throws {
    var fields = encoder.container(keyedBy: CodingKeys.self)
    try fields.encode(platform, forKey: .platform)
    try fields.encode(osVersion, forKey: .osVersion)
    try fields.encode(version, forKey: .version)
    try fields.encode(model, forKey: .model)
    try fields.encode(arch, forKey: .arch)
    try fields.encode(language, forKey: .language)
    try fields.encode(region, forKey: .region)
    try fields.encode(deviceId, forKey: .deviceId)
  }

  private enum CodingKeys: String, CodingKey {
    case platform, osVersion, version, model, arch, language, region, deviceId
  }
}

/// Where `DeviceInfo` comes from: files of the system and the environment.
struct DeviceProbe {
  /// Reads a whole file (nil when it is missing); tests give their own.
  var readFile: (String) -> String? = POSIX.readText
  /// The machine name (`uname(2)`'s `machine`).
  var machine: () -> String = DeviceProbe.unameMachine

  /// The device info for `environment` and `deviceId`.
  func info(environment: [String: String], deviceId: String) -> DeviceInfo {
    let release = (readFile("/etc/os-release") ?? readFile("/usr/lib/os-release")).map(Self.parseOSRelease) ?? [:]
    let osVersion = release["VERSION_ID"] ?? release["BUILD_ID"] ?? "unknown"
    let product = readFile("/sys/class/dmi/id/product_name").map(Self.trimmed) ?? ""
    let (language, region) = Self.locale(environment)
    return DeviceInfo(
      osVersion: osVersion, version: osVersion, model: product.isEmpty ? "unknown" : product, arch: machine(),
      language: language, region: region, deviceId: deviceId)
  }

  /// The `KEY=value` lines of os-release(5), with shell quoting removed.
  static func parseOSRelease(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let line = trimmed(String(line))
      guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
      var value = Substring(line[line.index(after: equals)...])
      if value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote {
        value = value.dropFirst().dropLast()
      }
      fields[String(line[..<equals])] = String(value).replacing("\\\"", with: "\"").replacing("\\\\", with: "\\")
    }
    return fields
  }

  /// Language and region of the messages locale: `LC_ALL`, else `LC_MESSAGES`, else `LANG`.
  ///
  /// `de_AT.UTF-8@euro` gives `de` and `AT`; `C`, `POSIX` or nothing gives `en` and no region.
  static func locale(_ environment: [String: String]) -> (language: String, region: String?) {
    let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
    let base = name.prefix { $0 != "." && $0 != "@" }
    guard base != "C", base != "POSIX", !base.isEmpty else { return ("en", nil) }
    let parts = base.split(separator: "_", maxSplits: 1)
    let region = parts.count > 1 ? parts[1].uppercased() : nil
    return (parts[0].lowercased(), region)
  }

  static func trimmed(_ text: String) -> String {
    var scalars = Substring(text)
    while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
    while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
    return String(scalars)
  }

  static func unameMachine() -> String {
    var names = utsname()
    guard uname(&names) == 0 else { return "unknown" }
    return withUnsafeBytes(of: &names.machine) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}

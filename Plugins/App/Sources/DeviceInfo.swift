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
  /// The DMI product name (`product_name`), or null when the machine has none to tell.
  var model: String?
  /// The DMI system vendor (`sys_vendor`), or null when the machine has none to tell.
  var manufacturer: String?
  /// The machine architecture as `uname -m` prints it (`x86_64`, `aarch64`).
  var arch: String
  /// ISO 639 language code of the locale (`en` for `en_US.UTF-8`).
  var language: String
  /// ISO 3166 region code of the locale (`US`), or null when the locale names none.
  var region: String?
  /// A UUID made once per data directory.
  var deviceId: String

  /// Encodes `model`, `manufacturer` and `region` as null rather than leaving them out, so the shape is always complete.
  func encode(to encoder: any Encoder) throws {
    var fields = encoder.container(keyedBy: CodingKeys.self)
    try fields.encode(platform, forKey: .platform)
    try fields.encode(osVersion, forKey: .osVersion)
    try fields.encode(version, forKey: .version)
    try fields.encode(model, forKey: .model)
    try fields.encode(manufacturer, forKey: .manufacturer)
    try fields.encode(arch, forKey: .arch)
    try fields.encode(language, forKey: .language)
    try fields.encode(region, forKey: .region)
    try fields.encode(deviceId, forKey: .deviceId)
  }

  private enum CodingKeys: String, CodingKey {
    case platform, osVersion, version, model, manufacturer, arch, language, region, deviceId
  }
}

/// Where `DeviceInfo` comes from: files of the system and the environment.
struct DeviceProbe {
  /// Reads a whole file (nil when it is missing); tests give their own.
  var readFile: (String) -> String? = POSIX.readText
  /// The machine name (`uname(2)`'s `machine`).
  var machine: () -> String = DeviceProbe.unameMachine

  /// The kernel's DMI folder; `NBRIDGE_DMI_DIR` in the run's environment replaces it (tests).
  static let dmiFolder = "/sys/class/dmi/id"

  /// The device info for `environment` and `deviceId`.
  func info(environment: [String: String], deviceId: String) -> DeviceInfo {
    let release = (readFile("/etc/os-release") ?? readFile("/usr/lib/os-release")).map(Self.parseOSRelease) ?? [:]
    let osVersion = release["VERSION_ID"] ?? release["BUILD_ID"] ?? "unknown"
    let dmi = environment["NBRIDGE_DMI_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.dmiFolder
    let (language, region) = Self.locale(environment)
    return DeviceInfo(
      osVersion: osVersion, version: osVersion, model: dmiField(dmi + "/product_name"),
      manufacturer: dmiField(dmi + "/sys_vendor"), arch: machine(), language: language, region: region,
      deviceId: deviceId)
  }

  /// A DMI string, trimmed; nil when the file is missing or unreadable, empty, or holds one of
  /// the placeholders firmware leaves in unset fields.
  func dmiField(_ path: String) -> String? {
    guard let value = readFile(path).map(Self.trimmed), !value.isEmpty else { return nil }
    return Self.dmiPlaceholders.contains(value.lowercased()) ? nil : value
  }

  /// Values firmware writes in DMI fields nobody filled in (lowercased).
  static let dmiPlaceholders: Set<String> = [
    "to be filled by o.e.m.", "default string", "system product name", "system manufacturer", "not specified",
    "not applicable", "none", "o.e.m.", "oem", "unknown",
  ]

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

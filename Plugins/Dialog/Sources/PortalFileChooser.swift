import NBridgeDBus
import NBridgePlugin
import NBridgeSystem

/// File dialogs through the XDG desktop portal (`org.freedesktop.portal.FileChooser` on the
/// session bus): what sandboxed apps must use, and the desktop's own chooser elsewhere.
/// `OpenFile`/`SaveFile` return a request whose `Response` signal carries the URIs chosen
/// (response 0), or says the user cancelled (1) or the dialog ended otherwise (2).
@BridgeActor
final class PortalFileChooser {
  static let busName = "org.freedesktop.portal.Desktop"
  static let objectPath = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.FileChooser"

  private let address: String?
  private let mainContext: OpaquePointer?
  private var bus: DBusConnection?
  private var answers: Bool?
  private var tokens = 0

  /// A chooser on the session bus at `address` (nil or `disabled:`: there is none).
  init(address: String?, mainContext: OpaquePointer?) {
    self.address = address
    self.mainContext = mainContext
  }

  /// Whether a portal answers on the bus (its FileChooser's `version`, asked once, within 2 s).
  func isAvailable() async -> Bool {
    if let answers { return answers }
    var found = false
    if let bus = try? await connected() {
      let version = try? await bus.call(
        Self.busName, path: Self.objectPath, interface: "org.freedesktop.DBus.Properties", method: "Get",
        arguments: .tuple([.string(Self.interface), .string("version")]), timeout: 2_000, autoStart: true)
      found = version != nil
    }
    answers = found
    return found
  }

  /// Shows the portal's dialog for `request`; the paths chosen, nil when cancelled.
  func choose(_ request: FileDialogRequest) async throws -> [String]? {
    let bus = try await connected()
    tokens += 1
    let token = "nbridge_dialog\(tokens)"
    var options: [String: DBusValue] = ["handle_token": .string(token), "modal": .bool(true)]
    if request.mode != .save { options["multiple"] = .bool(request.multiple) }
    if request.mode == .folder { options["directory"] = .bool(true) }
    if let folder = request.folder {
      options["current_folder"] = .array("y", (Array(folder.utf8) + [0]).map { .byte($0) })
    }
    if let name = request.name { options["current_name"] = .string(name) }
    if !request.filters.isEmpty {
      options["filters"] = .array(
        "(sa(us))",
        request.filters.map { filter in
          .tuple([.string(filter.name), .array("(us)", filter.patterns.map { .tuple([.uint32(0), .string($0)]) })])
        })
    }
    let sender = String(bus.uniqueName.dropFirst().map { $0 == "." ? "_" : $0 })
    let path = "\(Self.objectPath)/request/\(sender)/\(token)"
    var subscription: UInt32 = 0
    let outcome: (UInt32, [String]) = await withCheckedContinuation { continuation in
      var pending: CheckedContinuation<(UInt32, [String]), Never>? = continuation
      let finish: @BridgeActor ((UInt32, [String])) -> Void = { value in
        pending?.resume(returning: value)
        pending = nil
      }
      subscription = bus.subscribe(interface: "org.freedesktop.portal.Request", path: path) { signal, arguments in
        guard signal == "Response", let code = arguments.members.first?.uint32 else { return }
        finish((code, arguments.members.last?.dictionary?["uris"]?.strings ?? []))
      }
      Task {
        do {
          _ = try await bus.call(
            Self.busName, path: Self.objectPath, interface: Self.interface,
            method: request.mode == .save ? "SaveFile" : "OpenFile",
            arguments: .tuple([.string(""), .string(request.title ?? ""), .dictionary(options)]), timeout: 10_000)
        } catch {
          finish((3, ["\(error)"]))
        }
      }
    }
    bus.unsubscribe(subscription)
    switch outcome.0 {
    case 0: return outcome.1.compactMap(Self.path(fromFileURI:))
    case 3: throw BridgeError.unavailable("the file chooser portal failed: \(outcome.1.first ?? "")")
    default: return nil
    }
  }

  private func connected() async throws -> DBusConnection {
    if let bus { return bus }
    guard let address, !address.isEmpty, !address.hasPrefix("disabled:") else {
      throw BridgeError.unavailable("no session bus")
    }
    do {
      let bus = try await DBusConnection.connect(address: address, mainContext: mainContext, timeout: 2_000)
      self.bus = bus
      return bus
    } catch {
      throw BridgeError.unavailable("cannot reach the session bus at \(address): \(error)")
    }
  }

  /// `/tmp/a b.txt` from `file:///tmp/a%20b.txt`; nil for other URIs (a portal may hand back
  /// `https:` or document-portal URIs only to sandboxed apps).
  static func path(fromFileURI uri: String) -> String? {
    guard uri.hasPrefix("file://") else { return nil }
    var rest = Substring(uri.dropFirst(7))
    if !rest.hasPrefix("/") { rest = rest.drop { $0 != "/" } }  // file://host/path
    return PercentDecoding.decoded(rest)
  }
}

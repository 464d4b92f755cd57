/// Where a run forwards its log records (`--log-to HOST:PORT`, env `NBRIDGE_LOG_TO`), and how
/// many it keeps while no viewer has acknowledged them.
public struct LogDestination: Sendable, Hashable, CustomStringConvertible {
  /// The viewer's host name or address (`127.0.0.1` when `--log-to :PORT`).
  public var host: String
  /// The viewer's TCP port (`nbridge logs` listens on 2532 by default).
  public var port: UInt16
  /// Records kept until acknowledged (`--log-queue`); past it the oldest are dropped.
  public var queueLimit = 10_000
  /// Bytes kept until acknowledged; past it the oldest are dropped too.
  public var byteLimit = 8 << 20

  /// `HOST:PORT`, `:PORT` (loopback) or `[IPv6]:PORT`.
  public init(parsing text: String) throws(Problem) {
    guard let colon = text.lastIndex(of: ":") else {
      throw Problem(description: "--log-to must be HOST:PORT or :PORT (got \"\(text)\")")
    }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard let port = UInt16(text[text.index(after: colon)...]), port > 0 else {
      throw Problem(description: "--log-to needs a port from 1 to 65535 (got \"\(text)\")")
    }
    self.host = host.isEmpty ? "127.0.0.1" : host
    self.port = port
  }

  /// `host:port`, brackets around an IPv6 address.
  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// A destination the CLI cannot use; it exits 2 with this line.
  public struct Problem: Error, CustomStringConvertible {
    /// One clear line.
    public var description: String
  }
}

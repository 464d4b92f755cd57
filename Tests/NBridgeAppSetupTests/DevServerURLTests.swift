import Glibc
import NBridgeAppSetup
import Testing

/// The dev server's address as `nbridge app --dev-url` probes it: host and port out of the URL,
/// and whether something accepts a connection there.
@Suite struct DevServerURLTests {
  @Test func theAddressIsTheURLsHostAndPort() {
    #expect(DevServerURL.address(of: "http://localhost:5173/app/?x#y").map { "\($0.host) \($0.port)" } == "localhost 5173")
    #expect(DevServerURL.address(of: "http://127.0.0.1:8080").map { "\($0.host) \($0.port)" } == "127.0.0.1 8080")
    #expect(DevServerURL.address(of: "http://[::1]:9000/").map { "\($0.host) \($0.port)" } == "::1 9000")
    #expect(DevServerURL.address(of: "http://localhost/") == nil, "no port")
  }

  /// A listening socket answers; once it is closed, nothing does.
  @Test func answersWhileSomethingListens() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        bind(fd, raw, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, raw, &length) == 0
      }
    }
    try #require(bound)
    let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/"
    #expect(DevServerURL.answers(url, milliseconds: 200))
    close(fd)
    #expect(!DevServerURL.answers(url, milliseconds: 200))
  }
}

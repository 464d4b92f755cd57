import NBridgePlugin
import Testing

@testable import NBridgeLog

/// The wire format written by the runtime's sender and read by `nbridge logs`, one definition
/// for both (`LogWire`): what one side writes, the other reads back field by field.
@Suite struct LogWireTests {
  /// Reads `line` (without its newline) as the viewer does.
  func read(_ line: [UInt8]) -> LogLine? {
    line.withUnsafeBufferPointer { LogLine($0) }
  }

  func text(_ bytes: [UInt8], _ range: Range<Int>?) -> String? {
    range.map { range in bytes.withUnsafeBufferPointer { LogLine.decode(UnsafeBufferPointer(rebasing: $0[range])) } }
  }

  /// A record as the queue numbers it: `{"seq":N` then the body, without the newline.
  func numbered(_ seq: Int, _ body: [UInt8]) -> [UInt8] {
    LogWire.seqHead + Array(String(seq).utf8) + body.dropLast()
  }

  @Test func aLogRecordReadsBackWithItsCaller() throws {
    var files: [[UInt16]: (path: String, name: String)] = [:]
    let frame = Array("go@/app/main.js:12:5".utf16)
    let caller = try #require(frame.withUnsafeBufferPointer { CallerFrame(frame: $0, files: &files) })
    var body: [UInt8] = []
    Array("héllo \"x\"\n".utf16).withUnsafeBufferPointer {
      LogRecord.encode(level: .warn, message: $0, site: LogRecord.site(caller), into: &body)
    }
    let bytes = numbered(7, body)
    let line = try #require(read(bytes))
    #expect(line.seq == 7)
    #expect(line.level == .warn)
    #expect(text(bytes, line.message) == "héllo \"x\"\n")
    #expect(text(bytes, line.file) == "/app/main.js")
    #expect(line.line == 12)
    #expect(text(bytes, line.source) == "log")
    #expect(String(decoding: bytes, as: UTF8.self).hasSuffix(#","file":"/app/main.js","line":12,"col":5,"fn":"go","src":"log"}"#))
  }

  @Test func printedOutputIsAConsoleRecordWithoutACaller() throws {
    var body: [UInt8] = []
    LogRecord.encode(level: .error, output: "boom", into: &body)
    let bytes = numbered(1, body)
    let line = try #require(read(bytes))
    #expect(line.level == .error)
    #expect(text(bytes, line.message) == "boom")
    #expect(text(bytes, line.source) == "console")
    #expect(String(decoding: bytes, as: UTF8.self).hasSuffix(#""msg":"boom","file":"","line":0,"col":0,"fn":"","src":"console"}"#))
  }

  @Test func aDroppedMarkerReadsBack() throws {
    var bytes: [UInt8] = []
    LogSender.encode(LogQueue.Dropped(count: 3, from: 4, to: 6), into: &bytes)
    let line = try #require(read(Array(bytes.dropLast())))
    #expect(line.seq == 6)
    #expect(line.dropped == 3)
    #expect(line.from == 4)
    #expect(line.to == 6)
  }

  @Test func theHelloReadsBack() throws {
    let sender = try LogSender(destination: try LogDestination(parsing: ":9"), app: "org.example.app")
    let bytes = Array(sender.hello.dropLast())
    let line = try #require(read(bytes))
    #expect(line.hello)
    #expect(text(bytes, line.app) == "org.example.app")
    #expect(line.pid != nil)
    #expect(line.run != nil)
  }

  @Test func theAcknowledgementIsOneLine() {
    #expect(String(decoding: LogWire.acknowledgement(42), as: UTF8.self) == "{\"ack\":42}\n")
  }
}

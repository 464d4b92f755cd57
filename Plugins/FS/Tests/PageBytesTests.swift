import Foundation
import NBridgeTesting
import Testing

/// Bytes in a window: `fs.readFile` in a page (`nbridge app` under Xvfb), where bytes cross the
/// bridge as Base64, gives the file's bytes as a `Uint8Array`, every value and length included;
/// `fs.writeFile` in a page writes a view's bytes (page.js's Base64 on the way out).
@Suite struct PageBytesTests {
  @Test func readFileInAPageGivesTheFilesBytesAsAUint8Array() throws {
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    let app = try FilesApp()
    // Every byte value; lengths that leave 0, 1 and 2 bytes over a Base64 group, and none.
    let small = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    let large = (0..<300_000).map { UInt8(truncatingIfNeeded: ($0 >> 8) ^ $0) }
    try Data(small).write(to: URL(fileURLWithPath: app.files + "/small.bin"))
    try Data(large).write(to: URL(fileURLWithPath: app.files + "/large.bin"))
    try Data(small.prefix(2)).write(to: URL(fileURLWithPath: app.files + "/two.bin"))
    try Data().write(to: URL(fileURLWithPath: app.files + "/empty.bin"))
    try app.folder.write("app/index.html", "<!doctype html><title>bytes</title><p>bytes</p>\n")
    try app.folder.write(
      "app/script.js",
      """
      const fs = nbridge.fs;
      const { data } = await fs.paths();
      const describe = (bytes) => {
        let hash = 2166136261;
        for (const b of bytes) hash = Math.imul(hash ^ b, 16777619) >>> 0;
        return [Object.prototype.toString.call(bytes), bytes.length, hash];
      };
      const small = await fs.readFile({ path: data + '/small.bin' });
      const large = await fs.readFile({ path: data + '/large.bin' });
      await fs.writeFile({ path: data + '/copy.bin', data: new DataView(large.buffer) });
      return [
        Array.from(small),
        describe(small),
        describe(await fs.readFile({ path: data + '/large.bin' })),
        describe(await fs.readFile({ path: data + '/two.bin' })),
        describe(await fs.readFile({ path: data + '/empty.bin' })),
      ];
      """)
    var environment = app.environment
    environment["DISPLAY"] = xvfb.display
    let run = try NBridgeTest.command(
      ["app", app.folder.file("app/index.html"), "--script", app.folder.file("app/script.js"), "--exit-after-script"],
      environment: environment, timeout: 90)
    #expect(run.status == 0, "\(run.stderr)")
    func describe(_ bytes: [UInt8]) -> String {
      var hash: UInt32 = 2_166_136_261
      for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
      return #"["[object Uint8Array]",\#(bytes.count),\#(hash)]"#
    }
    let expected =
      "[[" + small.map(String.init).joined(separator: ",") + "]," + describe(small) + "," + describe(large) + ","
      + describe(Array(small.prefix(2))) + "," + describe([]) + "]"
    #expect(run.stdout.split(separator: "\n").contains { $0 == expected }, "\(run.stdout)\(run.stderr)")
    let copy = try Data(contentsOf: URL(fileURLWithPath: app.files + "/copy.bin"))
    #expect(Array(copy) == large, "the bytes a page wrote")
  }
}

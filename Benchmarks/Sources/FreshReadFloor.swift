import CJavaScriptCore
import Glibc

/// What a `Uint8Array` of a file's bytes costs in raw JavaScriptCore, new memory each time: a
/// native function reads the file with open, fstat, read(2), close into a fresh `malloc` block,
/// which a typed array then owns (`JSObjectMakeTypedArrayWithBytesNoCopy`, `free` when
/// collected); the script awaits it in a loop. Besides the copy into memory no longer in the
/// cache, it pays what any such array pays: the collector, paced by the arrays' bytes, runs
/// every few MiB to free them. No bridge, no scope check, no pool.
enum FreshReadFloor {
  /// The file the native function reads (set before the script runs; one thread).
  nonisolated(unsafe) static var path = ""

  /// µs per `await readFresh()` of `path`, over `count` reads after 20 unmeasured ones.
  static func run(_ file: String, count: Int) -> Double {
    path = file
    let ctx = JSGlobalContextCreate(nil)!
    defer { JSGlobalContextRelease(ctx) }
    JSCFloor.define(ctx, "nowMicros") { ctx, _, _, _, _, _ in JSValueMakeNumber(ctx, Double(Clock.nanos()) / 1000) }
    JSCFloor.define(ctx, "readFresh") { ctx, _, _, _, _, _ in
      let fd = open(FreshReadFloor.path, O_RDONLY | O_CLOEXEC)
      precondition(fd >= 0)
      defer { close(fd) }
      var info = stat()
      fstat(fd, &info)
      let capacity = Int(info.st_size) + 1
      let block = malloc(capacity)!
      var done = 0
      while true {
        let n = read(fd, block + done, capacity - done)
        if n <= 0 { break }
        done += n
      }
      return JSObjectMakeTypedArrayWithBytesNoCopy(
        ctx, kJSTypedArrayTypeUint8Array, block, done, { bytes, _ in free(bytes) }, nil, nil)
    }
    JSCFloor.evaluate(
      ctx,
      """
      globalThis.results = [];
      (async () => {
        for (let i = 0; i < 20; i++) await readFresh();
        const start = nowMicros();
        for (let i = 0; i < \(count); i++) {
          if ((await readFresh()).length !== \(FileBench.readSize)) throw new Error('short read');
        }
        results.push((nowMicros() - start) / \(count));
      })();
      """)
    return JSCFloor.numbers(ctx, "results").first ?? .nan
  }
}

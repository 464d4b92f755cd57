import Glibc

/// `fs`: a 1 MiB `readFile` and an atomic `writeTextFile` through `nbridge run`, each against the
/// same work done here with plain system calls on the same file, in the same round.
struct FileBench {
  let nbridge: String
  let directory: String
  let environment: [String: String]

  /// Medians over `rounds`: µs per call of each figure.
  struct Result {
    var read: [Double] = []
    var readFloor: [Double] = []
    var freshReadFloor: [Double] = []
    var roundTrip: [Double] = []
    var write: [Double] = []
    var writeFloor: [Double] = []
  }

  static let readSize = 1 << 20
  static let writeSize = 4096

  func run(rounds: Int, reads: Int = 300, writes: Int = 100) -> Result {
    var result = Result()
    let data = directory + "/data"
    let files = data + "/files"
    let script = directory + "/fs-bench.js"
    try! """
      const fs = nbridge.fs;
      const { data } = await fs.paths();
      const big = data + '/read.bin';
      const bytes = new Uint8Array(\(Self.readSize));
      for (let i = 0; i < bytes.length; i++) bytes[i] = i & 255;
      await fs.writeFile({ path: big, data: bytes });
      for (let i = 0; i < 20; i++) await fs.readFile({ path: big });
      let start = performance.now();
      for (let i = 0; i < \(reads); i++) {
        if ((await fs.readFile({ path: big })).length !== \(Self.readSize)) throw new Error('short read');
      }
      console.log('BENCH read ' + (performance.now() - start) * 1000 / \(reads));
      start = performance.now();
      for (let i = 0; i < 5000; i++) await fs.paths();
      console.log('BENCH roundtrip ' + (performance.now() - start) * 1000 / 5000);
      const text = 'w'.repeat(\(Self.writeSize));
      start = performance.now();
      for (let i = 0; i < \(writes); i++) await fs.writeTextFile({ path: data + '/write.txt', contents: text });
      console.log('BENCH write ' + (performance.now() - start) * 1000 / \(writes));
      """.write(toFile: script, atomically: true, encoding: .utf8)
    var set = environment
    set["NBRIDGE_DATA_DIR"] = data
    for round in 0..<rounds {
      progress("fs, round \(round + 1) of \(rounds): nbridge.fs, then read(2), a JSC array of fresh memory and temp-fsync-rename here")
      let run = Spawned([nbridge, "run", script], set: set, stdout: "\(directory)/fs\(round).out")
      guard run.wait().status == 0 else { continue }
      let text = run.output()
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "BENCH", let value = Double(parts[2]) else { continue }
        switch parts[1] {
        case "read": result.read.append(value)
        case "roundtrip": result.roundTrip.append(value)
        case "write": result.write.append(value)
        default: break
        }
      }
      result.readFloor.append(Self.plainReads(files + "/read.bin", count: reads))
      result.freshReadFloor.append(FreshReadFloor.run(files + "/read.bin", count: reads))
      result.writeFloor.append(Self.plainWrites(files, count: writes))
    }
    return result
  }

  /// µs per whole-file read: open, fstat, read(2) into a buffer of its size, close.
  static func plainReads(_ path: String, count: Int) -> Double {
    var buffer = [UInt8](repeating: 0, count: readSize + 1)
    func once() {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      precondition(fd >= 0)
      var info = stat()
      fstat(fd, &info)
      var done = 0
      buffer.withUnsafeMutableBytes { raw in
        while true {
          let n = read(fd, raw.baseAddress! + done, raw.count - done)
          if n <= 0 { break }
          done += n
        }
      }
      precondition(done == Int(info.st_size))
      close(fd)
    }
    for _ in 0..<20 { once() }
    let start = Clock.nanos()
    for _ in 0..<count { once() }
    return Double(Clock.nanos() - start) / 1000 / Double(count)
  }

  /// µs per atomic replace of a 4 KiB file: a temporary file written, fsync'ed, renamed over, the folder fsync'ed.
  static func plainWrites(_ folder: String, count: Int) -> Double {
    let bytes = [UInt8](repeating: UInt8(ascii: "w"), count: writeSize)
    let target = folder + "/plain.txt"
    let temporary = folder + "/.plain.tmp"
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { close(directory) }
    let start = Clock.nanos()
    for _ in 0..<count {
      let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      precondition(fd >= 0)
      precondition(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == writeSize)
      fsync(fd)
      close(fd)
      precondition(rename(temporary, target) == 0)
      fsync(directory)
    }
    return Double(Clock.nanos() - start) / 1000 / Double(count)
  }
}

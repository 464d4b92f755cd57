import Foundation
import NBridgeTesting
import Testing

/// Options the fuzzer found stalling the runtime for minutes (seed 3532701649): a 10 MiB typed
/// array behind a Proxy, whose keys the options reader listed through its traps one index at a
/// time. Each is now refused with `invalid_parameter` naming the field and the limit, by every
/// way into the bridge, and the runtime answers the next call. A run is bounded by its process's
/// time limit: a stalled reader shows as a run that did not end.
@Suite(.serialized) struct HugeOptionsTests {
  /// Makes the call `input` names by the three ways in, prints `path code message` for each, then
  /// a storage round trip (`next value`).
  static let script = """
    const big = () => new Proxy(new Uint8Array(10 << 20), {});
    const inputs = {
      field: ['window', 'getState', () => ({ id: big() })],
      options: ['window', 'getState', () => big()],
      surrogateAndProxy: ['notification', 'schedule', () => ({ title: '\\ud800'.repeat(1048576), data: big() })],
    };
    const [service, action, options] = inputs[nbridge.args[0]];
    function postMessage(option) {
      return new Promise((resolve, reject) => {
        nbridge.resolvePromise = (id, data, error) =>
          error ? reject(Object.assign(new Error(error.message), { code: error.code })) : resolve(data);
        webkit.messageHandlers.WKBridge.postMessage({ service, action, promiseId: 1, option });
      });
    }
    const paths = {
      method: () => nbridge[service][action](options()),
      callToNative: () => nbridge.callToNative(service, action, options()),
      postMessage: () => postMessage(options()),
    };
    for (const [path, call] of Object.entries(paths)) {
      try {
        await call();
        console.log(path + ' resolved');
      } catch (e) {
        console.log(path + ' ' + e.code + ' ' + e.message);
      }
    }
    await nbridge.storage.set({ key: 'after', value: [1, 'two'] });
    console.log('next ' + JSON.stringify(await nbridge.storage.get({ key: 'after' })));
    """

  @Test(arguments: [
    ("field", "window.getState: \"id\" holds 10485760 values; the options may hold at most 1048576 in all"),
    ("options", "window.getState: options holds 10485760 values; the options may hold at most 1048576 in all"),
    (
      "surrogateAndProxy",
      "notification.schedule: \"data\" holds 10485760 values; the options may hold at most 1048576 in all"
    ),
  ])
  func aProxiedTenMiBTypedArrayIsRefusedAtOnceByEveryPath(input: String, message: String) async throws {
    // Listing the Proxy's keys took 10 s of CPU per call on a quiet machine, and minutes under load.
    let run = try await NBridgeTest.run(
      Self.script, .process, arguments: ["--timeout", "30", "--", input], timeout: 40)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "method invalid_parameter \(message)", "callToNative invalid_parameter \(message)",
        "postMessage invalid_parameter \(message)", "next [1,\"two\"]",
      ], "\(run.stdout)\n\(run.stderr)")
  }
}

// A page script written for WKBridgeKit may set window.nbridge to its own object before anything
// reads the built-in one (which is built on first touch): its pause and resume listeners are
// still called, and the built-in object does not replace it.

const seen = [];
globalThis.nbridge = {
  callPauseListener: () => seen.push('callPauseListener'),
  callResumeListener: () => seen.push('callResumeListener'),
};

test("a script's own nbridge object hears pause and resume", { page: false, reason: "simulate() drives the headless lifecycle only" }, async () => {
  await simulate('background', { for: 50 });
  await simulate('foreground');
  assert.deepEqual(seen, ['callPauseListener', 'callResumeListener']);
  assert.equal(Object.keys(globalThis.nbridge).join(), 'callPauseListener,callResumeListener');
});

test('webkit.messageHandlers is still there and answers through the built-in services', async () => {
  const answered = new Promise((resolve) => {
    globalThis.nbridge.resolvePromise = (id, data, error) => resolve([id, data, error]);
  });
  webkit.messageHandlers.WKBridge.postMessage(
    JSON.stringify({ service: 'app', action: 'getState', promiseId: 7, option: {} }),
  );
  assert.deepEqual(await answered, [7, { state: 'active', isActive: true }, null]);
});

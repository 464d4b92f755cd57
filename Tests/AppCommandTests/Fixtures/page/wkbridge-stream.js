// WKBridgeKit's location.watch: positions reach the retained callback through resolvePromise,
// and the call settles through finallyResolvePromise once clearWatch ends it.
const positions = [];
let moved;
const second = new Promise((resolve) => (moved = resolve));
const watching = nbridge.callToNative('location', 'watch', {
  retainCallback: (position) => {
    positions.push([position.latitude, position.longitude]);
    if (positions.length === 1) nbridge.callToNative('location', 'simulate', { latitude: 35.1796, longitude: 129.0756 });
    if (positions.length === 2) moved();
  },
});
await second;
const cleared = await nbridge.callToNative('location', 'clearWatch', {});
const settled = await watching;
return { positions, cleared, settled: settled === undefined ? 'undefined' : settled };

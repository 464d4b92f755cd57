// A change listener that nothing triggers: measures what an idle watcher costs.
// Usage: nbridge run idle-watcher.js [-- name]
const name = nbridge.args[0];
(async () => {
  if (name) await nbridge.pasteboard.create({ name });
  await nbridge.pasteboard.changeCount(name ? { name } : {});
  nbridge.pasteboard.addListener('change', () => console.log('change'));
  console.log('ready');
})();

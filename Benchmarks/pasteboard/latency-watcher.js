// Waits for N pasteboard change events whose text is the writer's Date.now() stamp and
// prints the delay from before setString (in the writer) to the change event (here).
// Usage: nbridge run latency-watcher.js -- N [name]
const count = Number(nbridge.args[0] || 50);
const name = nbridge.args[1];
const options = name ? { name } : {};
const delays = [];

const handle = nbridge.pasteboard.addListener('change', async (change) => {
  const arrived = Date.now();
  if ((change.name ?? undefined) !== name) return;
  const sent = Number(await nbridge.pasteboard.getString(options));
  if (!Number.isFinite(sent) || delays.length === count) return;
  delays.push(arrived - sent);
  if (delays.length === count) {
    handle.remove();
    delays.sort((a, b) => a - b);
    const mean = delays.reduce((a, b) => a + b, 0) / count;
    const at = (q) => delays[Math.min(count - 1, Math.floor(q * count))];
    console.log(`events ${count}: mean ${mean.toFixed(2)} ms, median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${delays[count - 1]} ms`);
  }
});

(async () => {
  if (name) await nbridge.pasteboard.create({ name });
  await nbridge.pasteboard.changeCount(options);
  console.log('ready');
})();

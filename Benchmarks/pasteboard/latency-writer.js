// Copies N timestamps (Date.now() taken just before each setString), 50 ms apart.
// Usage: nbridge run latency-writer.js -- N [name]
const count = Number(nbridge.args[0] || 50);
const name = nbridge.args[1];
(async () => {
  for (let i = 0; i < count; i++) {
    const options = { string: String(Date.now()) };
    if (name) options.name = name;
    await nbridge.pasteboard.setString(options);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})();

// Storage throughput: nbridge run Benchmarks/storage-throughput.js [-- N]
// Run it with a throwaway data dir: NBRIDGE_DATA_DIR=$(mktemp -d) nbridge run ...
const n = Number(nbridge.args[0] || 10000);

function rate(count, ms) {
  return Math.round(count / (ms / 1000)).toLocaleString('en-US') + '/s';
}

(async () => {
  const value = { name: 'item', tags: ['a', 'b'], count: 3 };

  let start = Date.now();
  const sets = [];
  for (let i = 0; i < n; i++) sets.push(nbridge.storage.set({ key: 'bulk' + i, value }));
  await Promise.all(sets);
  console.log(`set, ${n} at once (Promise.all):     ${rate(n, Date.now() - start)}`);

  const sequential = Math.min(n, 2000);
  start = Date.now();
  for (let i = 0; i < sequential; i++) await nbridge.storage.set({ key: 'seq' + i, value });
  console.log(`set, ${sequential} one after another (await): ${rate(sequential, Date.now() - start)}`);

  start = Date.now();
  for (let i = 0; i < n; i++) await nbridge.storage.get({ key: 'bulk' + i });
  console.log(`get, ${n} one after another (await): ${rate(n, Date.now() - start)}`);

  start = Date.now();
  const gets = [];
  for (let i = 0; i < n; i++) gets.push(nbridge.storage.get({ key: 'bulk' + i }));
  await Promise.all(gets);
  console.log(`get, ${n} at once (Promise.all):     ${rate(n, Date.now() - start)}`);
})();

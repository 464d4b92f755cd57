// Notification round trips, sequential: `nbridge run Benchmarks/notification.js 2>/dev/null`
// (headless: no session bus; on a desktop, or with DBUS_SESSION_BUS_ADDRESS of a bus that
// runs dunst, `show` goes over D-Bus). Prints microseconds per call.
const n = nbridge.notification;

async function measure(label, count, body) {
  const start = Date.now();
  for (let i = 0; i < count; i++) await body(i);
  const perCall = ((Date.now() - start) * 1000) / count;
  console.log(`${label}: ${perCall.toFixed(0)} µs per call (${count} calls)`);
}

(async () => {
  await n.show({ title: 'warm-up', body: '' });
  await measure('show', 200, (i) => n.show({ title: `bench ${i}`, body: 'body', id: `show-${i % 10}` }));
  await measure('schedule (saved with fsync)', 100, (i) => n.schedule({ title: 'later', body: '', id: `s${i}`, after: 3600000 }));
  await measure('getPending (100 pending)', 200, () => n.getPending());
  await measure('cancel (saved with fsync)', 100, (i) => n.cancel({ id: `s${i}` }));
  await measure('getDelivered (100 records)', 200, () => n.getDelivered());
})();

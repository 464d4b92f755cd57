// Moves the simulated position with nbridge.location.simulate, then asks both navigator.geolocation
// and nbridge.location: one source answers both.
await nbridge.location.simulate({ latitude: 1.5, longitude: 2.5, accuracy: 12 });
const fix = await nbridge.location.current({ timeout: 20000 });
const page = await new Promise((resolve, reject) =>
  navigator.geolocation.getCurrentPosition(
    (p) => resolve([p.coords.latitude, p.coords.longitude, p.coords.accuracy]),
    (e) => reject(new Error(e.message)),
    { timeout: 20000 },
  )
);
return { page, bridge: [fix.latitude, fix.longitude, fix.accuracy] };

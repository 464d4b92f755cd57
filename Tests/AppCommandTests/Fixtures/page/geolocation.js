// navigator.geolocation, WebKit's own: the position, or the error's code and message.
return await new Promise((resolve) => {
  navigator.geolocation.getCurrentPosition(
    (p) =>
      resolve({
        latitude: p.coords.latitude,
        longitude: p.coords.longitude,
        altitude: p.coords.altitude,
        heading: p.coords.heading,
      }),
    (e) => resolve({ code: e.code, message: e.message, denied: e.code === e.PERMISSION_DENIED }),
    { timeout: 20000 },
  );
});

// nbridge.location under `nbridge test`: the simulated source, which has no position until
// location.simulate (or NBRIDGE_LOCATION) gives one.

const loc = nbridge.location;

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

test('without a simulated position, calls reject unavailable and say how to set one', async () => {
  const error = await rejection(loc.available());
  assert.equal(error.code, 'unavailable');
  assert.ok(/NBRIDGE_LOCATION=latitude,longitude or call location\.simulate/.test(error.message), error.message);
  assert.equal((await rejection(loc.current())).code, 'unavailable');
});

test('current answers with the simulated position, null where it is unknown', async () => {
  await loc.simulate({ latitude: 37.5665, longitude: 126.978, accuracy: 5 });
  assert.deepEqual(await loc.available(), { source: 'simulated' });
  const fix = await loc.current({ timeout: 1000, accuracy: 'city' });
  assert.deepEqual(Object.keys(fix), [
    'latitude',
    'longitude',
    'accuracy',
    'altitude',
    'speed',
    'heading',
    'timestamp',
  ]);
  assert.equal(fix.latitude, 37.5665);
  assert.equal(fix.longitude, 126.978);
  assert.equal(fix.accuracy, 5);
  assert.equal(fix.altitude, null);
  assert.equal(fix.speed, null);
  assert.equal(fix.heading, null);
  assert.equal(typeof fix.timestamp, 'number');
});

test('watch streams each move until clearWatch, which resolves it', async () => {
  await loc.simulate({ latitude: 1, longitude: 2 });
  const seen = [];
  let cleared;
  await loc.watch({
    retainCallback: (fix) => {
      seen.push(fix.latitude + ',' + fix.longitude);
      if (seen.length === 1) loc.simulate({ latitude: 48.8566, longitude: 2.3522, heading: 90 });
      if (seen.length === 2) cleared = loc.clearWatch();
    },
  });
  assert.deepEqual(seen, ['1,2', '48.8566,2.3522']);
  assert.deepEqual(await cleared, { cleared: 1 });
  assert.deepEqual(await loc.clearWatch(), { cleared: 0 });
});

test('watch without a retainCallback and bad options reject invalid_parameter naming the field', async () => {
  const noCallback = await rejection(loc.watch());
  assert.equal(noCallback.code, 'invalid_parameter');
  assert.ok(/"retainCallback" must be a function/.test(noCallback.message), noCallback.message);
  const accuracy = await rejection(loc.current({ accuracy: 'perfect' }));
  assert.equal(accuracy.code, 'invalid_parameter');
  assert.ok(
    /"accuracy" must be one of 'country', 'city', 'neighborhood', 'street', 'exact'/.test(accuracy.message),
    accuracy.message,
  );
  const timeout = await rejection(loc.current({ timeout: -1 }));
  assert.ok(/"timeout" must be 0\.\.\.600000/.test(timeout.message), timeout.message);
  const latitude = await rejection(loc.simulate({ latitude: 91, longitude: 0 }));
  assert.ok(/"latitude" must be -90\.\.\.90/.test(latitude.message), latitude.message);
});

test('a watch that joins a running session starts from its newest fix', async () => {
  await loc.simulate({ latitude: 10, longitude: 20 });
  const first = [];
  const second = [];
  const watching = loc.watch({ retainCallback: (fix) => first.push(fix.latitude) });
  const fix = await loc.current();
  assert.equal(fix.latitude, 10);
  await loc.watch({
    retainCallback: (fix) => {
      second.push(fix.latitude);
      loc.clearWatch();
    },
  });
  await watching;
  assert.deepEqual(first, [10]);
  assert.deepEqual(second, [10]);
});

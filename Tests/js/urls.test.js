// URL hand-off as a script sees it without a launch URL or a desktop (nbridge test is headless).

test('a run not launched by a URL has no launch URL', async () => {
  assert.equal(await nbridge.app.getLaunchUrl(), null);
});

test('a URL without a scheme is invalid_parameter naming url', async () => {
  await assert.rejects(nbridge.app.canOpenURL({ url: 'no scheme' }), 'invalid_parameter');
  await assert.rejects(nbridge.app.openURL({}), 'invalid_parameter');
});

test('a scheme nothing claims cannot be opened', async () => {
  assert.equal(await nbridge.app.canOpenURL({ url: 'nbridgetestnothing://x' }), false);
  assert.deepEqual(await nbridge.app.openURL({ url: 'nbridgetestnothing://x' }), { completed: false });
});

test('an appUrlOpen listener can be added and removed', async () => {
  const handle = nbridge.app.addListener('appUrlOpen', () => {});
  handle.remove();
});

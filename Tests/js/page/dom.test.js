// Tests for `nbridge test --page`: they run in a page of the app (WebKitGTK), and a headless
// `nbridge test` skips them, saying so on their lines.

test('a blank page of the app has a document to build on', { page: true }, () => {
  const list = document.createElement('ul');
  for (const word of ['one', 'two']) list.appendChild(document.createElement('li')).textContent = word;
  document.body.appendChild(list);
  assert.equal(document.querySelectorAll('li').length, 2);
  assert.equal(list.lastChild.textContent, 'two');
  assert.equal(location.protocol, 'nbridge:');
});

test('a click reaches its listener, and nbridge answers from the page', { page: true }, async () => {
  const button = document.body.appendChild(document.createElement('button'));
  const clicked = new Promise((resolve) => button.addEventListener('click', () => resolve(nbridge.storage.set({ key: 'k', value: 'v' }))));
  button.click();
  await clicked;
  assert.equal(await nbridge.storage.get({ key: 'k' }), 'v');
});

test('the page has layout: an element has a size', { page: true }, () => {
  const box = document.body.appendChild(document.createElement('div'));
  box.style.cssText = 'width: 120px; height: 30px';
  assert.deepEqual([box.getBoundingClientRect().width, box.offsetHeight], [120, 30]);
});

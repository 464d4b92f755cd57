// The sample app's own page (www/index.html, the default --app folder) under `nbridge test --page`:
// its buttons are clicked as a user would, and what they show is checked.

const button = (label) => [...document.querySelectorAll('#buttons button')].find((b) => b.textContent === label);

// The log gains a line for each call a button made (page.js's show()).
async function logLine(prefix) {
  for (let i = 0; i < 200; i++) {
    const line = document.querySelector('#log').textContent.split('\n').find((l) => l.startsWith(prefix));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no log line starting with ' + JSON.stringify(prefix) + ' in ' + JSON.stringify(document.querySelector('#log').textContent));
}

test('the page starts: a welcome line from app.appInfo', { page: 'index.html' }, async () => {
  await window.ready;
  const welcome = document.querySelector('#welcome').textContent;
  assert(/ · launch #1 · /.test(welcome), welcome);
  assert.equal(document.querySelectorAll('#buttons button').length, 11);
});

test('preference.set then preference.get: the buttons save and read the theme', { page: 'index.html' }, async () => {
  await window.ready;
  button('preference.set').click();
  assert.equal(await logLine('preference.set: '), 'preference.set: "theme saved"');
  button('preference.get').click();
  assert.equal(await logLine('preference.get: '), 'preference.get: {"dark":true,"accent":"#0a84ff"}');
});

test('each test of a page gets the page afresh', { page: 'index.html' }, async () => {
  await window.ready;
  const log = document.querySelector('#log').textContent;
  assert(log.startsWith('Ready. Each button calls one plugin action through nbridge.\n'), log);
  assert(!log.includes('preference'), log);
});

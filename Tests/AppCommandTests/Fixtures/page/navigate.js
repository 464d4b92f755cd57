// The top frame leaves the app for another origin (a local server, port in nbridge.args):
// the page there tries a call, then closes the window.
location.href = 'http://127.0.0.1:' + nbridge.args[0] + '/evil.html';

// A frame of another origin posts to both handlers; neither may do any work.
// Its nbridge message is storage.set (code sid 1 * 65536 + aid 1) of fromFrame2: a write that lands shows.
const frame = document.createElement('iframe');
const body = "<script>" +
  "window.webkit.messageHandlers.WKBridge.postMessage(JSON.stringify({service:'storage',action:'set',promiseId:'x',option:{key:'fromFrame',value:1}}));" +
  "window.webkit.messageHandlers.nbridge.postMessage('c65537\\n{\"key\":\"fromFrame2\",\"value\":1}').then((a) => parent.postMessage(String(a), '*'), (e) => parent.postMessage('error ' + e, '*'));" +
  "<\/script>";
const answer = new Promise((resolve) => addEventListener('message', (e) => resolve(e.data)));
frame.src = 'data:text/html,' + encodeURIComponent(body);
document.body.appendChild(frame);
// The window takes the frame's messages in order: the WKBridge one was refused before this reply.
const reply = await answer;
return { frameReply: reply, hasNbridgeInFrame: frame.contentWindow === null ? 'opaque' : 'unknown' };

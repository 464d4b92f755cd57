// A frame of another origin posts to both handlers; neither may do any work.
const frame = document.createElement('iframe');
const body = "<script>" +
  "window.webkit.messageHandlers.WKBridge.postMessage(JSON.stringify({service:'storage',action:'set',promiseId:'x',option:{key:'fromFrame',value:1}}));" +
  "window.webkit.messageHandlers.nbridge.postMessage('c65536\\n{\"key\":\"fromFrame2\",\"value\":1}').then((a) => parent.postMessage(String(a), '*'), (e) => parent.postMessage('error ' + e, '*'));" +
  "<\/script>";
const answer = new Promise((resolve) => addEventListener('message', (e) => resolve(e.data)));
frame.src = 'data:text/html,' + encodeURIComponent(body);
document.body.appendChild(frame);
const reply = await answer;
await new Promise((resolve) => setTimeout(resolve, 200));
return { frameReply: reply, hasNbridgeInFrame: frame.contentWindow === null ? 'opaque' : 'unknown' };

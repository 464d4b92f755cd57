// app's page-only actions in a window: a screenshot of the page, then clearCache, which
// answers once WebKit has cleared the app's website data.
const shot = await nbridge.app.screenshot();
const cleared = await nbridge.app.clearCache();
return { shot, cleared };

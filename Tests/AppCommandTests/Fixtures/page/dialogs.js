alert('hello');
const confirmed = confirm('sure?');
const answer = prompt('name?');
setTimeout(() => { throw new Error('thrown in a timer'); });
// Timers run in the order they came due: by this one, the throwing one has run and been reported.
await new Promise((resolve) => setTimeout(resolve));
return { confirmed, answer, alive: true };

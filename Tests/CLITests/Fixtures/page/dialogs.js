alert('hello');
const confirmed = confirm('sure?');
const answer = prompt('name?');
setTimeout(() => { throw new Error('thrown in a timer'); });
await new Promise((resolve) => setTimeout(resolve, 100));
return { confirmed, answer, alive: true };

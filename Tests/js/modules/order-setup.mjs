// The gate order-low.mjs waits on at top level, and a way to make it fail.
let failGate;
export const gate = new Promise((_, reject) => (failGate = reject));
export const fail = (error) => failGate(error);

import { a } from './cycle-a.mjs';
export const b = 'b';
let early;
try {
  early = a;
} catch (e) {
  early = e;
}
export { early };

// Every export form, for modules.test.mjs.
export const one = 1, { two, inner: [three] } = { two: 2, inner: [3] };
export let counter = 0;
export function increment() {
  counter += 1;
}
export async function* numbers() {
  yield 1;
}
export class Box {
  constructor(v) {
    this.v = v;
  }
}
const hidden = 'h';
export { hidden as renamed, hidden as 'string name', hidden as '*' };
export default function () {
  return 'default function';
}

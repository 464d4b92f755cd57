// A TypeScript module imported by typescript.test.ts: types erased, the code runs.
export interface Shape {
  kind: 'circle' | 'square';
  size: number;
}

export type Area = (shape: Shape) => number;

export enum Kind {
  Circle = 'circle',
  Square = 'square',
}

export const area: Area = (shape: Shape): number =>
  shape.kind === Kind.Circle ? Math.PI * shape.size ** 2 : shape.size * shape.size;

export function largest<T extends Shape>(shapes: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const s of shapes) if (!best || area(s) > area(best!)) best = s;
  return best;
}

// A test written in TypeScript: `nbridge test` erases its types (no checking) and runs it, as
// `nbridge run app.ts` does; an error points at this file's own line and column.
import { area, Kind, largest, type Shape } from './modules/shapes.ts';
import type { Area } from './modules/shapes.ts';

interface Counter {
  count: number;
  add(n?: number): void;
}

enum Direction {
  Up = 1,
  Down,
  Left = Up + 10,
  Right,
}

abstract class Base<T> {
  protected readonly items: T[] = [];
  declare hint: string;
  abstract label(): string;
  add(item: T): this {
    this.items.push(item);
    return this;
  }
}

class Names extends Base<string> implements Counter {
  count = 0;
  label(): string {
    return this.items.join(', ');
  }
  override add(item: string): this;
  override add(item: string, n?: number): this {
    this.count += n ?? 1;
    return super.add(item);
  }
}

test('types, interfaces and generics are erased and the code runs', () => {
  const shapes: Shape[] = [{ kind: 'square', size: 2 }, { kind: Kind.Circle, size: 1 }];
  const measure: Area = area;
  assert.equal(measure(shapes[0]!), 4);
  assert.equal(largest<Shape>(shapes)?.kind, 'square');
  const names = new Names().add('a').add('b') as Names;
  assert.equal(names.label(), 'a, b');
  assert.equal(names.count satisfies number, 2);
  assert.equal('hint' in names, false, 'a declared field makes no property');
});

test('enums: numbered, initialized, mapped back, string-valued', () => {
  assert.equal(Direction.Down, 2);
  assert.equal(Direction.Left, 11);
  assert.equal(Direction.Right, 12);
  assert.equal(Direction[2], 'Down');
  assert.equal(Kind.Square, 'square');
  assert.equal(Kind['square' as keyof typeof Kind], undefined, 'string members are not mapped back');
});

test('an error thrown from TypeScript points at the .ts line and column', () => {
  // JavaScriptCore names the column of `Error(`'s parenthesis on line 63, counted in this file as written.
  const where = <T,>(value: T): string => {
    const e: Error = new Error(String(value));
    return (e.stack ?? '').split('\n')[0]!;
  };
  const line: string = where<number>(1);
  assert.ok(line.includes('typescript.test.ts:63:31'), line);
});

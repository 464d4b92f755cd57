#!/usr/bin/env python3
"""Writes Sources/nbridge/startup-order.txt: the functions of nbridge's own binary that a short
run executes, in the order callgrind first saw them. lld places them first in .text
(--symbol-ordering-file in Package.swift), so the pages a start faults in, and the pages the
kernel maps around each fault, hold code that runs instead of its cold neighbours.

    python3 Benchmarks/StartupOrder/generate.py .build/release/nbridge

Needs valgrind. A stale list is harmless: a name that no longer exists is skipped, and what is
not listed is laid out as before."""
import os, re, subprocess, sys, tempfile

binary = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
work = tempfile.mkdtemp(prefix='nbridge-order-')
copy = os.path.join(work, 'nbridge-stripped')
# Valgrind cannot read the static binary's debug info; the symbol table is enough.
subprocess.run(['objcopy', '--strip-debug', binary, copy], check=True)
scenarios = {
    'hello.js': "console.log('hello');\n",
    'warm.js': (
        "console.log('hello', { a: 1 }, [1, 2]);\n"
        "const s = await nbridge.app.getState();\n"
        "const m = await import('./lib.mjs');\n"
        "console.log(s, m.x, new URL('https://example.com/a?b=1').host);\n"
        "setTimeout(() => console.log('later'), 1);\n"
    ),
    'lib.mjs': 'export const x = 41;\n',
}
for name, text in scenarios.items():
    with open(os.path.join(work, name), 'w') as f:
        f.write(text)
env = dict(os.environ, NBRIDGE_DATA_DIR=os.path.join(work, 'data'), NBRIDGE_MODULE_CACHE='off')
names, seen = [], set()
for entry in ['hello.js', 'warm.js']:
    out = os.path.join(work, entry + '.callgrind')
    subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no', '--callgrind-out-file=' + out, copy, 'run',
                    os.path.join(work, entry)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    objects, functions, current = {}, {}, None
    for line in open(out, errors='replace'):
        line = line.rstrip('\n')
        m = re.match(r'^(c?ob)=\((\d+)\)(?: (.*))?$', line)
        if m:
            kind, key, name = m.groups()
            if name:
                objects[key] = name
            if kind == 'ob':
                current = objects[key]
            continue
        m = re.match(r'^(c?fn)=\((\d+)\)(?: (.*))?$', line)
        if m:
            kind, key, name = m.groups()
            if name:
                functions[key] = name
            if kind == 'fn' and current == copy and functions[key] not in seen:
                seen.add(functions[key])
                names.append(functions[key])
target = os.path.join(root, 'Sources', 'nbridge', 'startup-order.txt')
with open(target, 'w') as f:
    f.write('\n'.join(names) + '\n')
print('%d functions -> %s' % (len(names), target))

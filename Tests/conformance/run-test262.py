#!/usr/bin/env python3
"""test262's module tests under nbridge: the proof of issue 18, kept here so it can be re-run.

test262 itself is never in this repository. Bring a copy (the search tool's `fetch` of
tc39/test262, then `git archive HEAD test/language/module-code test/language/expressions/dynamic-import
harness | tar -x -C DIR`) and run:

    python3 Tests/conformance/run-test262.py --test262 DIR [--nbridge .build/release/nbridge]
        [--deno .build-tools/venv/bin/deno] [--node node]

It runs `test/language/module-code/**` and the top-level files of
`test/language/expressions/dynamic-import/` (not `_FIXTURE` files). Each test gets its frontmatter's
harness files (`assert.js`, `sta.js`, `doneprintHandle.js` for `async`, and its `includes`)
through `load()`. A `module` test is imported from an entry beside an `nbridge.json` with
`"type": "module"`, so its `.js` files are modules as the test expects; a script test runs with
the harness in front of it, from a file beside it (so its relative `import()`s resolve), which is
removed afterwards. `negative` tests pass when the error of that type is what ends them; `async`
ones when they print `Test262:AsyncTestComplete`. Each run has a 10 s limit. Prints the count and
every failure with the end of its output. JOBS=N runs N at once (default 2).

`--elsewhere` runs instead every other test of the copy whose flags say `module` (import
attributes, `import.meta` syntax, escaped keywords, and proposals: `import defer`, `using`, text
imports), for which the copy needs all of `test/`.

With `--deno` and `--node` the same tests run under those peers the same way, as far as each
allows: Deno evaluates the harness with an indirect `eval` and has no script mode (a script test
runs as a module); Node runs with `--experimental-default-type=module`, the harness through
`vm.runInThisContext`, and a script test as a `.cjs` file.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import tempfile


def frontmatter(text):
    block = re.search(r'/\*---(.*?)---\*/', text, re.S)
    yaml = block.group(1) if block else ''

    def listed(key):
        inline = re.search(r'^\s*' + key + r':\s*\[(.*?)\]', yaml, re.M | re.S)
        if inline:
            return [x.strip() for x in inline.group(1).split(',') if x.strip()]
        items = re.search(r'^\s*' + key + r':\s*\n((?:\s+-\s*.*\n)+)', yaml, re.M)
        return [x.strip()[1:].strip() for x in items.group(1).strip().split('\n')] if items else []

    negative = re.search(r'negative:\s*\n\s*phase:\s*(\w+)\s*\n\s*type:\s*(\w+)', yaml)
    return {
        'flags': listed('flags'),
        'includes': listed('includes'),
        'negative': negative.group(2) if negative else None,
    }


def elsewhere(root, skip):
    """Every other test whose frontmatter's flags say `module`, anywhere under test/."""
    found = []
    for folder, _, files in os.walk(os.path.join(root, 'test')):
        for f in files:
            path = os.path.join(folder, f)
            if not f.endswith('.js') or '_FIXTURE' in f or path in skip:
                continue
            with open(path, encoding='utf-8', errors='replace') as text:
                if 'module' in frontmatter(text.read())['flags']:
                    found.append(path)
    return sorted(found)


def tests(root):
    found = []
    for folder, _, files in os.walk(os.path.join(root, 'test/language/module-code')):
        found += [os.path.join(folder, f) for f in files if f.endswith('.js') and '_FIXTURE' not in f]
    dynamic = os.path.join(root, 'test/language/expressions/dynamic-import')
    found += [os.path.join(dynamic, f) for f in os.listdir(dynamic) if f.endswith('.js') and '_FIXTURE' not in f]
    return sorted(found)


def harness(root, meta):
    files = ['assert.js', 'sta.js'] + (['doneprintHandle.js'] if 'async' in meta['flags'] else []) + meta['includes']
    text = 'globalThis.print = (...a) => console.log(...a);\n'
    for name in files:
        with open(os.path.join(root, 'harness', name)) as f:
            text += f.read() + '\n'
    return text


def run(root, runtime, binary, path):
    with open(path) as f:
        text = f.read()
    meta = frontmatter(text)
    scratch = tempfile.mkdtemp(prefix='nbridge-test262-')
    beside = None
    try:
        prelude = os.path.join(scratch, 'harness.js')
        with open(prelude, 'w') as f:
            f.write(harness(root, meta))
        report = ('.then(() => console.log("IMPORT:OK"), (e) => '
                  'console.log("IMPORT:ERR:" + (e && e.constructor && e.constructor.name) + ":" + e));\n')
        if 'module' in meta['flags']:
            entry = os.path.join(scratch, 'entry.mjs' if runtime == 'node' else 'entry.js')
            with open(entry, 'w') as f:
                if runtime == 'nbridge':
                    with open(os.path.join(scratch, 'nbridge.json'), 'w') as manifest:
                        # The loader reads only the app's folder and what the import map names.
                        tests = os.path.join(os.path.abspath(root), 'test') + '/'
                        manifest.write(json.dumps({'id': 'dev.nbridge.test262', 'type': 'module',
                                                   'imports': {tests: tests}}))
                    f.write('load(%s);\nimport(%s)' % (json.dumps(prelude), json.dumps(path)) + report)
                elif runtime == 'deno':
                    f.write('(0, eval)(await Deno.readTextFile(%s));\nimport(%s)'
                            % (json.dumps(prelude), json.dumps('file://' + path)) + report)
                else:
                    f.write('import vm from "node:vm"; import fs from "node:fs";\n'
                            'vm.runInThisContext(fs.readFileSync(%s, "utf8"));\nimport(%s)'
                            % (json.dumps(prelude), json.dumps('file://' + path)) + report)
        else:
            suffix = '.cjs' if runtime == 'node' else '.js'
            beside = os.path.join(os.path.dirname(path), '.nbridge-' + os.path.basename(path)[:-3] + suffix)
            entry = beside
            with open(entry, 'w') as f:
                f.write(('"use strict";\n' if 'onlyStrict' in meta['flags'] else '') + harness(root, meta) + text)
        command = {
            'nbridge': [binary, 'run', entry],
            'deno': [binary, 'run', '--quiet', '-A', entry],
            'node': [binary, '--experimental-default-type=module', entry],
        }[runtime]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=10, cwd=os.path.dirname(path))
        except subprocess.TimeoutExpired:
            return path, False, 'TIMEOUT'
        out, status = done.stdout + done.stderr, done.returncode
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        if beside and os.path.exists(beside):
            os.remove(beside)
    kind = meta['negative']
    if kind:
        ok = ('IMPORT:ERR:' + kind) in out or (status != 0 and ('Uncaught ' + kind) in out) or (
            status != 0 and kind in out and 'module' not in meta['flags'])
    elif 'async' in meta['flags']:
        ok = 'Test262:AsyncTestComplete' in out and 'Failure' not in out and status == 0
    elif 'module' in meta['flags']:
        ok = 'IMPORT:OK' in out and status == 0
    else:
        ok = status == 0 and 'Uncaught' not in out
    return path, ok, out[-300:]


def main():
    parser = argparse.ArgumentParser(description='test262 module tests under nbridge')
    parser.add_argument('--test262', required=True, help='a folder holding test262 test/ and harness/')
    parser.add_argument('--nbridge', default='.build/release/nbridge')
    parser.add_argument('--deno', help='also run Deno (its binary)')
    parser.add_argument('--node', help='also run Node (its binary)')
    parser.add_argument('--elsewhere', action='store_true',
                        help='run instead every other module test of the copy (bring all of test/)')
    options = parser.parse_args()
    root = os.path.abspath(options.test262)
    runtimes = [('nbridge', os.path.abspath(options.nbridge))]
    if options.deno:
        runtimes.append(('deno', os.path.abspath(options.deno)))
    if options.node:
        runtimes.append(('node', shutil.which(options.node) or options.node))
    selected = tests(root)
    if options.elsewhere:
        selected = elsewhere(root, set(selected))
    passed = {}
    for runtime, binary in runtimes:
        with concurrent.futures.ThreadPoolExecutor(int(os.environ.get('JOBS', '2'))) as pool:
            results = list(pool.map(lambda p: run(root, runtime, binary, p), selected))
        passed[runtime] = {p for p, ok, _ in results if ok}
        failures = [(p, o) for p, ok, o in results if not ok]
        print('%s: %d / %d passed' % (runtime, len(results) - len(failures), len(results)))
        if runtime == 'nbridge':
            for path, out in failures:
                print('FAIL', os.path.relpath(path, root), '|', out.strip().replace('\n', ' ')[:200])
    if len(passed) > 1:
        peers = set().union(*(v for k, v in passed.items() if k != 'nbridge'))
        print('nbridge passes %d of the %d tests a peer passes' % (len(peers & passed['nbridge']), len(peers)))


if __name__ == '__main__':
    main()

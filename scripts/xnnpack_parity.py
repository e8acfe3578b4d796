#!/usr/bin/env python3
"""Does our default XNNPACK delegate take the nodes TFLite's takes?

For each .tflite model given (files or folders), loads it into the real TFLite
(ai-edge-litert; XNNPACK is applied by default, as in benchmark_model) and into ours
(`delegate_report --json`), and compares, for the main subgraph, the number of XNNPACK
partitions and the nodes left on the CPU. TFLite does not expose its execution plan to
Python, so its partitions' nodes are recovered from each DELEGATE node's boundary: walking
back from the partition's output tensors through their producers, stopping at its input
tensors, reaches exactly the partition's nodes.

Differences are expected where this toolkit's Debian XNNPACK (2022) cannot express an op
and the delegate has no own step for it; each is listed with our reason.

Usage:
  /tmp/tfi-venv/bin/python scripts/xnnpack_parity.py --build build \
      ../shared/models/zoo ../shared/models/mediapipe [--golden OUT.json]
--golden writes TFLite's partitions (count and CPU nodes per model, with the model's
folder under ../shared/models and its sha256) as JSON: testdata/goldens/
xnnpack_partitions.json, which delegates/xnnpack/xnnpack_parity_test.cc checks ours against.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys

from ai_edge_litert.interpreter import Interpreter


def models(paths):
    for p in paths:
        if os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if f.endswith('.tflite'):
                    yield os.path.join(p, f)
        else:
            yield p


def tflite_partitions(path):
    """(partition count, sorted CPU node indices) of TFLite's default XNNPACK delegation."""
    interp = Interpreter(model_path=path)
    interp.allocate_tensors()
    ops = interp._get_ops_details()
    originals = [o for o in ops if o['op_name'] != 'DELEGATE']
    delegates = [o for o in ops if o['op_name'] == 'DELEGATE']
    producer = {}
    for o in originals:
        for t in o['outputs']:
            producer[int(t)] = o['index']
    by_index = {o['index']: o for o in originals}
    taken = set()
    for d in delegates:
        stop = set(int(t) for t in d['inputs'])
        work = [int(t) for t in d['outputs']]
        seen = set()
        while work:
            t = work.pop()
            if t in seen or t in stop or t not in producer:
                continue
            seen.add(t)
            n = producer[t]
            if n in taken:
                continue
            taken.add(n)
            work.extend(int(i) for i in by_index[n]['inputs'] if i >= 0)
    cpu = sorted(o['index'] for o in originals if o['index'] not in taken)
    return len(delegates), cpu


def our_partitions(build, path):
    tool = os.path.join(build, 'cmd', 'delegate_report')
    r = subprocess.run([tool, '--graph=' + path, '--json'], capture_output=True, text=True)
    if r.returncode != 0:
        return None, None, r.stderr.strip().splitlines()[-1:] or ['exit %d' % r.returncode]
    d = json.loads(r.stdout)
    sg = d['subgraphs'][0]
    parts = 0
    reasons = {}
    for dl in sg['delegates']:
        parts += len(dl.get('partitions', []))
        for left in dl.get('left', []):
            reasons[left['node']] = left.get('reason', left.get('kind', ''))
    cpu = sorted(n['node'] for n in sg['nodes'] if n.get('delegate') is None)
    return parts, cpu, reasons


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default='build')
    ap.add_argument('--golden', help='write TFLite partitions as JSON here')
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()
    golden = {}
    same = differ = 0
    for path in models(args.paths):
        try:
            t_parts, t_cpu = tflite_partitions(path)
        except Exception as e:  # TFLite cannot load it: nothing to compare
            print('%s: TFLite: %s' % (path, str(e).splitlines()[0][:100]))
            continue
        o_parts, o_cpu, reasons = our_partitions(args.build, path)
        name = os.path.basename(path)
        with open(path, 'rb') as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        golden[name] = {'folder': os.path.basename(os.path.dirname(os.path.abspath(path))),
                        'sha256': digest, 'partitions': t_parts, 'cpu_nodes': t_cpu}
        if o_parts is None:
            print('%s: ours failed: %s' % (name, reasons[0]))
            differ += 1
            continue
        if (t_parts, t_cpu) == (o_parts, o_cpu):
            same += 1
            print('%s: same (%d partitions, %d CPU nodes)' % (name, t_parts, len(t_cpu)))
            continue
        differ += 1
        print('%s: TFLite %d partitions, ours %d' % (name, t_parts, o_parts))
        only_ours = sorted(set(o_cpu) - set(t_cpu))
        only_theirs = sorted(set(t_cpu) - set(o_cpu))
        for n in only_ours[:8]:
            print('    node %d on our CPU only: %s' % (n, reasons.get(n, '?')))
        if len(only_ours) > 8:
            print('    ... %d more on our CPU only' % (len(only_ours) - 8))
        if only_theirs:
            print('    on TFLite\'s CPU only: %s' % only_theirs[:16])
    print('%d same, %d differ' % (same, differ))
    if args.golden:
        with open(args.golden, 'w') as f:
            f.write('{\n' + ',\n'.join(' %s: %s' % (json.dumps(k), json.dumps(golden[k], sort_keys=True))
                                       for k in sorted(golden)) + '\n}\n')


if __name__ == '__main__':
    sys.exit(main())

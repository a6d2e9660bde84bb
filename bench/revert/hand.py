#!/usr/bin/env python3
# hand.py NAME: every Revert mutant (and every survivor) of gates/NAME.json applied by hand in a
# worktree at the commit, the whole vitest suite run: survived <=> the suite passes.
import json, os, subprocess, sys
n = sys.argv[1]; repo, commit = n.rsplit('-', 1)
j = json.load(open(f'/work/revtrial/gates/{n}.json'))
t = '/work/trial2' if os.path.isdir(f'/work/trial2/{repo}/.git') else '/work/trial'
src = f'{t}/{repo}'; wt = f'/tmp/rhand-{n}'
if not os.path.exists(wt):
    subprocess.run(['git', '-C', src, 'worktree', 'add', '-q', '-f', '--detach', wt, commit], check=True)
    os.symlink(f'{src}/node_modules', f'{wt}/node_modules')
def suite():
    r = subprocess.run(['node', 'node_modules/vitest/vitest.mjs', 'run', '--reporter=dot'], cwd=wt, capture_output=True, text=True, timeout=900, env={**os.environ, 'NO_COLOR': '1', 'FORCE_COLOR': '0'})
    tail = (r.stdout + r.stderr).strip().splitlines()[-6:]
    return r.returncode, ' | '.join(' '.join(l.split()) for l in tail if 'Tests' in l)[:100]
rc, tl = suite()
out = [f'{n} base: rc={rc} {tl}']
for m in j.get('mutants', []):
    if m['mutatorName'] != 'Revert' and m['outcome'] not in ('survived', 'no-coverage'):
        continue
    p = subprocess.run(['git', 'apply', '-'], cwd=wt, input=m['diff'], text=True, capture_output=True)
    if p.returncode != 0:
        out.append(f"  {m['id']} {m['outcome']}: diff does not apply: {p.stderr.strip()[:100]}"); continue
    rc, tl = suite()
    want = 0 if m['outcome'] in ('survived', 'no-coverage') else 1
    ok = (rc == 0) == (want == 0)
    out.append(f"  {m['id']} {m['mutatorName']} {m['outcome']} line {m.get('line')}: hand rc={rc} {'AGREE' if ok else 'DISAGREE'} {tl}")
    subprocess.run(['git', 'checkout', '-q', '--', '.'], cwd=wt)
subprocess.run(['git', '-C', src, 'worktree', 'remove', '-f', wt])
print('\n'.join(out))

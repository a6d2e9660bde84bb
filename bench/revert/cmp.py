import json,os,sys,glob
for f in sorted(glob.glob('/work/revtrial/gates/*.json')):
    n=os.path.basename(f)[:-5]
    try: new=json.load(open(f))
    except Exception as e: print(n,'new unreadable',e); continue
    old=None
    for t in ('/work/trial2/out','/work/trial/out'):
        p=f'{t}/{n}/batched.json'
        if os.path.exists(p):
            try: old=json.load(open(p))
            except: pass
    def s(d):
        if not d: return '?'
        k=sum(1 for m in d.get('mutants',[]) if m.get('outcome') in ('killed','timeout'))
        sv=[m for m in d.get('mutants',[]) if m.get('outcome') in ('survived','no-coverage')]
        return f"{d.get('verdict')} {d.get('score',0):.0f}% k{k} s{len(sv)}"
    rev=[m for m in new.get('mutants',[]) if m.get('mutatorName')=='Revert']
    print(f"{n:22} old {s(old):28} new {s(new):28} reverts:", ' '.join(f"{m['outcome']}" for m in rev))
    if new.get('verdict')=='SKIP': print('   ', new.get('reason','')[:200])

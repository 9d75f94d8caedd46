#!/usr/bin/env python3
# A heuristic over nvdisasm listings (2026-11-29i, call 8): for each global load
# (LDG), whether an instruction reads its destination register before the
# next LDG of the listing, i.e. the load is waited out before the next one
# issues. Loops and branches are not followed. Usage: serial-loads.py FILE.txt...
import re,sys,glob
ins_re=re.compile(r'/\*([0-9a-f]{4,})\*/\s+(.*?);')
def parse(path):
    out=[]
    for line in open(path):
        m=ins_re.search(line)
        if m: out.append(m.group(2).strip())
    return out
def dest_src(ins):
    s=re.sub(r'^@!?U?P\w+\s+','',ins)
    parts=s.split(None,1)
    op=parts[0]; args=parts[1] if len(parts)>1 else ''
    regs=[a.strip() for a in args.split(',')]
    return op,regs
for path in sorted(sys.argv[1:]):
    ins=parse(path)
    if not ins: continue
    ldg=[i for i,x in enumerate(ins) if re.search(r'\bLDG\b',x)]
    waited=0
    for k,p in enumerate(ldg):
        op,regs=dest_src(ins[p])
        if not regs: continue
        rd=regs[0]
        q=ldg[k+1] if k+1<len(ldg) else None
        if q is None: continue
        for j in range(p+1,q):
            o,r=dest_src(ins[j])
            srcs=' '.join(r[1:]) if not o.startswith('ST') else ' '.join(r)
            if re.search(r'\b%s\b'%re.escape(rd),srcs):
                waited+=1;break
    if len(ldg)>=4:
        print('%-60s LDG=%3d waited-before-next=%3d' % (path.split('/')[-1], len(ldg), waited))
